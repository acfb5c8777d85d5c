import Testing

/// The local file handler and its path safety (`swift test --filter Files`).
@Suite enum FilesTests {}
