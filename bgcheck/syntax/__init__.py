"""Syntax: the IR of expressions (``ir``), and reading the two trees bgcheck parses.

Phase 1 (summaries) reads CPython's ``ast``: ``ast_ir`` and ``ast_flow``. Phase 2 (the rules, the
fixes) reads libcst's concrete trees: ``parse``, ``walk``, ``cst_ir``, ``flow``, ``loops``, ``rows``.
The two sides answer the same questions of the same code the same way (tests/test_ast_flow.py).
"""
