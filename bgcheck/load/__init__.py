"""Phase 1, loading: discovery, configuration, reading and decoding, per-file summaries (a FileUnit each), BG000 reasons, the cache, its keys and its serial format."""
