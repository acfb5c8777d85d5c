import Testing

/// Shared HTTP semantics: ranges, validators, dates, preconditions (`swift test --filter HTTP`).
@Suite enum HTTPTests {}
