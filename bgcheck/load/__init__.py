"""Phase 1, loading: configuration, discovery, decoding guards, per-file summaries, the cache and its serial format."""
