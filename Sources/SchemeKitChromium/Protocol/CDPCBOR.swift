#if Chromium
    import Foundation
    import SchemeKitBrowserSupport

    /// Chromium's CBOR dialect of the DevTools protocol (`--remote-debugging-pipe=cbor`), checked
    /// against Chromium 156 on the pipe:
    ///
    /// - every map, the message itself included, is wrapped in an *envelope*: tag 24 (`0xd8 0x18`)
    ///   and a byte string with a 4-byte length (`0x5a` + big-endian `UInt32`) holding the map;
    ///   a command whose `params` is not enveloped is refused ("Message may have object 'params'
    ///   property");
    /// - maps and arrays are indefinite-length (`0xbf … 0xff`, `0x9f … 0xff`); a definite-length
    ///   top-level map is refused ("map start expected");
    /// - on the pipe, messages follow each other with no NUL terminator: the envelope's length frames them;
    /// - text is a UTF-8 text string, or (from Chromium, for non-ASCII text) a byte string holding UTF-16LE;
    /// - `binary` protocol fields are tag 22 (`0xd6`, "expected base64") and a byte string of raw bytes.
    enum CDPCBOR {
        /// The CBOR for a value, envelopes included.
        static func encode(_ value: CDPValue) -> Data {
            var writer = Writer(separatingBinaryFrom: Int.max, capacity: estimatedSize(value, separatingFrom: Int.max))
            writer.write(value)
            return writer.current
        }

        /// The CBOR for a value as pieces to write in order, whose concatenation is ``encode(_:)``'s:
        /// a binary field of at least `threshold` bytes is a piece of its own, the caller's `Data`
        /// (shared, not copied), so a large `Fetch.fulfillRequest` body is never copied into the message.
        static func encodePieces(_ value: CDPValue, separatingBinaryFrom threshold: Int = 64 << 10) -> [Data] {
            var writer = Writer(
                separatingBinaryFrom: threshold, capacity: estimatedSize(value, separatingFrom: threshold))
            writer.write(value)
            return (writer.pieces + [writer.current]).filter { !$0.isEmpty }
        }

        /// The length of an envelope's payload, from its first 7 bytes; `nil` when they are not an envelope header.
        static func envelopeLength(_ header: some Collection<UInt8>) -> Int? {
            guard header.count >= 7 else { return nil }
            let bytes = Array(header.prefix(7))
            guard bytes[0] == 0xd8, bytes[1] == 0x18, bytes[2] == 0x5a else { return nil }
            return bytes[3...6].reduce(0) { $0 << 8 | Int($1) }
        }

        /// Parses one message (an envelope holding a map).
        static func decode(_ data: Data) throws(CDPCBORError) -> CDPValue {
            let result = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Result<CDPValue, CDPCBORError> in
                var reader = Reader(bytes: buffer)
                do throws(CDPCBORError) {
                    return .success(try reader.value())
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        }

        /// The bytes the encoding takes outside separated binary fields.
        private static func estimatedSize(_ value: CDPValue, separatingFrom threshold: Int) -> Int {
            switch value {
            case .binary(let data): return data.count >= threshold ? 16 : data.count + 16
            case .string(let string): return string.utf8.count + 9
            case .array(let elements): return elements.reduce(2) { $0 + estimatedSize($1, separatingFrom: threshold) }
            case .object(let members):
                return members.reduce(9) {
                    $0 + $1.key.utf8.count + 9 + estimatedSize($1.value, separatingFrom: threshold)
                }
            default: return 9
            }
        }

        /// Writes CBOR into `current`; a binary field of at least `threshold` bytes ends `current`
        /// (moved to `pieces`) and becomes a piece of its own. Envelope lengths are patched where
        /// their placeholder was written, in `current` or in an earlier piece of ours.
        private struct Writer {
            let threshold: Int
            var pieces: [Data] = []
            var current = Data()
            /// Bytes written so far, in every piece.
            var written = 0

            init(separatingBinaryFrom threshold: Int, capacity: Int) {
                self.threshold = threshold
                current.reserveCapacity(capacity)
            }

            mutating func append(_ byte: UInt8) {
                current.append(byte)
                written += 1
            }

            mutating func append(contentsOf bytes: some Sequence<UInt8>) {
                let before = current.count
                current.append(contentsOf: bytes)
                written += current.count - before
            }

            mutating func append(_ data: Data) {
                if data.count >= threshold {
                    pieces.append(current)
                    pieces.append(data)
                    current = Data()
                    current.reserveCapacity(64)
                } else {
                    current.append(data)
                }
                written += data.count
            }

            mutating func writeHead(_ major: UInt8, _ count: UInt64) {
                let type = major << 5
                switch count {
                case 0..<24: append(type | UInt8(count))
                case 24..<0x100: append(contentsOf: [type | 24, UInt8(count)])
                case 0x100..<0x10000: append(contentsOf: [type | 25, UInt8(count >> 8), UInt8(count & 0xff)])
                case 0x10000..<0x1_0000_0000:
                    append(type | 26)
                    withUnsafeBytes(of: UInt32(count).bigEndian) { append(contentsOf: $0) }
                default:
                    append(type | 27)
                    withUnsafeBytes(of: count.bigEndian) { append(contentsOf: $0) }
                }
            }

            mutating func write(_ value: CDPValue) {
                switch value {
                case .null: append(0xf6)
                case .bool(let flag): append(flag ? 0xf5 : 0xf4)
                case .int(let number):
                    if number >= 0 {
                        writeHead(0, UInt64(number))
                    } else {
                        writeHead(1, UInt64(-1 - number))
                    }
                case .double(let number):
                    append(0xfb)
                    withUnsafeBytes(of: number.bitPattern.bigEndian) { append(contentsOf: $0) }
                case .string(let string):
                    let utf8 = string.utf8
                    writeHead(3, UInt64(utf8.count))
                    append(contentsOf: utf8)
                case .binary(let data):
                    append(0xd6)
                    writeHead(2, UInt64(data.count))
                    append(data)
                case .array(let elements):
                    append(0x9f)
                    for element in elements { write(element) }
                    append(0xff)
                case .object(let members):
                    append(contentsOf: [0xd8, 0x18, 0x5a, 0, 0, 0, 0])
                    // Where the length goes: in `current` now, possibly an earlier piece later.
                    let piece = pieces.count
                    let lengthAt = current.count - 4
                    let start = written
                    append(0xbf)
                    for (key, member) in members {
                        write(.string(key))
                        write(member)
                    }
                    append(0xff)
                    let length = UInt32(written - start)
                    let bytes = [
                        UInt8(length >> 24), UInt8((length >> 16) & 0xff), UInt8((length >> 8) & 0xff),
                        UInt8(length & 0xff),
                    ]
                    if piece == pieces.count {
                        current.replaceSubrange(lengthAt..<(lengthAt + 4), with: bytes)
                    } else {
                        pieces[piece].replaceSubrange(lengthAt..<(lengthAt + 4), with: bytes)
                    }
                }
            }
        }

        /// The deepest nesting of arrays, maps and tags read, as Chromium's own CBOR parser
        /// allows (`kStackLimit` in crdtp): deeper input is refused, not recursed into until the
        /// stack overflows.
        static let maximumDepth = 300

        private struct Reader {
            let bytes: UnsafeRawBufferPointer
            var position = 0
            var depth = 0

            mutating func byte() throws(CDPCBORError) -> UInt8 {
                guard position < bytes.count else { throw .truncated }
                defer { position += 1 }
                return bytes[position]
            }

            mutating func argument(_ info: UInt8) throws(CDPCBORError) -> UInt64 {
                switch info {
                case 0..<24: return UInt64(info)
                case 24...27:
                    let width = 1 << Int(info - 24)
                    var result: UInt64 = 0
                    for _ in 0..<width { result = result << 8 | UInt64(try byte()) }
                    return result
                default: throw .unsupported(info)
                }
            }

            mutating func take(_ count: UInt64) throws(CDPCBORError) -> UnsafeRawBufferPointer {
                guard count <= UInt64(bytes.count - position) else { throw .truncated }
                defer { position += Int(count) }
                return UnsafeRawBufferPointer(rebasing: bytes[position..<position + Int(count)])
            }

            mutating func value() throws(CDPCBORError) -> CDPValue {
                guard depth < CDPCBOR.maximumDepth else { throw .tooDeep }
                depth += 1
                defer { depth -= 1 }
                let initial = try byte()
                let major = initial >> 5
                let info = initial & 0x1f
                switch major {
                case 0:
                    return .int(Int(truncatingIfNeeded: try argument(info)))
                case 1:
                    return .int(-1 - Int(truncatingIfNeeded: try argument(info)))
                case 2:
                    // An untagged byte string is UTF-16LE text (Chromium's non-ASCII strings).
                    let raw = try take(try argument(info))
                    let units = stride(from: 0, to: raw.count - 1, by: 2).map {
                        UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8
                    }
                    return .string(String(decoding: units, as: UTF16.self))
                case 3:
                    return .string(String(decoding: try take(try argument(info)), as: UTF8.self))
                case 4:
                    var elements: [CDPValue] = []
                    if info == 31 {
                        while try peek() != 0xff { elements.append(try value()) }
                        position += 1
                    } else {
                        for _ in 0..<(try argument(info)) { elements.append(try value()) }
                    }
                    return .array(elements)
                case 5:
                    var members: [String: CDPValue] = [:]
                    if info == 31 {
                        while try peek() != 0xff { try member(into: &members) }
                        position += 1
                    } else {
                        for _ in 0..<(try argument(info)) { try member(into: &members) }
                    }
                    return .object(members)
                case 6:
                    let tag = try argument(info)
                    if tag == 24 {
                        // An envelope: a byte string holding one encoded value.
                        let header = try byte()
                        guard header >> 5 == 2 else { throw .malformed("envelope without a byte string") }
                        _ = try argument(header & 0x1f)
                        return try value()
                    }
                    if tag == 22 {
                        let header = try byte()
                        guard header >> 5 == 2 else { throw .malformed("binary without a byte string") }
                        return .binary(Data(try take(try argument(header & 0x1f))))
                    }
                    return try value()
                default:
                    switch info {
                    case 20: return .bool(false)
                    case 21: return .bool(true)
                    case 22, 23: return .null
                    case 25:
                        return .double(Self.half(UInt16(try argument(25))))
                    case 26:
                        return .double(Double(Float(bitPattern: UInt32(try argument(26)))))
                    case 27:
                        return .double(Double(bitPattern: try argument(27)))
                    default: throw .unsupported(initial)
                    }
                }
            }

            mutating func member(into members: inout [String: CDPValue]) throws(CDPCBORError) {
                guard case .string(let key) = try value() else { throw .malformed("map key is not a string") }
                members[key] = try value()
            }

            /// An IEEE 754 half-precision float (RFC 8949 appendix D).
            static func half(_ bits: UInt16) -> Double {
                let exponent = Int(bits >> 10) & 0x1f
                let mantissa = Double(bits & 0x3ff)
                let magnitude: Double
                switch exponent {
                case 0: magnitude = mantissa * 0x1p-24
                case 31: magnitude = mantissa == 0 ? .infinity : .nan
                default:
                    magnitude = (1 + mantissa / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
                }
                return bits & 0x8000 != 0 ? -magnitude : magnitude
            }

            func peek() throws(CDPCBORError) -> UInt8 {
                guard position < bytes.count else { throw .truncated }
                return bytes[position]
            }
        }
    }

    /// A CBOR message that could not be parsed.
    enum CDPCBORError: Error, Sendable, Equatable {
        case truncated
        case unsupported(UInt8)
        case malformed(String)
        /// Arrays, maps and tags nested deeper than ``CDPCBOR/maximumDepth``.
        case tooDeep
    }
#endif
