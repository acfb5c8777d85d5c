import Foundation

/// The `Range` header of a request, resolved against a representation's length (RFC 9110 §14).
///
/// Amplification is capped the way Go and nginx do it: more than ``maximumRanges`` ranges, or
/// ranges whose total exceeds the representation, answer with the whole file.
enum ByteRangeSet: Equatable, Sendable {
    /// No usable `Range` header (absent or malformed): send the whole representation with 200.
    case whole
    /// Satisfiable ranges, as closed intervals, in request order.
    case ranges([ClosedRange<Int64>])
    /// Nothing satisfiable: 416 with `Content-Range: bytes */length`.
    case unsatisfiable

    /// The most ranges honoured in one request.
    static let maximumRanges = 16

    /// Parses `header` for a representation of `length` bytes.
    init(header: String?, length: Int64) {
        guard let header else {
            self = .whole
            return
        }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else {
            self = .whole
            return
        }
        var result: [ClosedRange<Int64>] = []
        var total: Int64 = 0
        let specs = trimmed.dropFirst(6).split(separator: ",", omittingEmptySubsequences: false)
        guard specs.count <= Self.maximumRanges else {
            self = .whole
            return
        }
        for rawSpec in specs {
            let spec = rawSpec.trimmingCharacters(in: .whitespaces)
            guard let dash = spec.firstIndex(of: "-") else {
                self = .whole
                return
            }
            let first = spec[..<dash]
            let last = spec[spec.index(after: dash)...]
            func number(_ text: Substring) -> Int64? {
                guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), text.count <= 18 else {
                    return nil
                }
                return Int64(text)
            }
            if first.isEmpty {
                guard let suffix = number(last) else {
                    self = .whole
                    return
                }
                guard suffix > 0, length > 0 else { continue }
                result.append(max(0, length - suffix)...(length - 1))
            } else {
                guard let start = number(first) else {
                    self = .whole
                    return
                }
                var end = length - 1
                if !last.isEmpty {
                    guard let value = number(last), value >= start else {
                        self = .whole
                        return
                    }
                    end = min(value, length - 1)
                }
                guard start < length else { continue }
                result.append(start...end)
            }
            total += result.last.map { $0.upperBound - $0.lowerBound + 1 } ?? 0
        }
        if result.isEmpty {
            self = .unsatisfiable
        } else if result.count > 1 && total > length {
            self = .whole
        } else {
            self = .ranges(result)
        }
    }
}
