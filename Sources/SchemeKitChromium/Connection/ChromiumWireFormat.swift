#if Chromium
    import Foundation
    import SchemeKitBrowserSupport

    /// How DevTools messages are encoded on the pipe.
    public enum ChromiumWireFormat: String, Sendable, Hashable, CaseIterable {
        /// `--remote-debugging-pipe`: UTF-8 JSON, each message ending in a NUL byte. Binary fields
        /// travel as base64, so a body grows by a third, and Chromium refuses messages over 100 MiB.
        case json
        /// `--remote-debugging-pipe=cbor`: Chromium's CBOR, each message an envelope; binary fields are
        /// raw bytes (the default: smaller, faster, no base64 limit near 75 MiB).
        case cbor

        /// One framed message: JSON and its NUL terminator, or a CBOR envelope (which frames itself).
        func frame(_ value: CDPValue) -> Data {
            switch self {
            case .json:
                var bytes = CDPJSON.encode(value)
                bytes.append(0)
                return bytes
            case .cbor:
                return CDPCBOR.encode(value)
            }
        }

        /// ``frame(_:)`` as pieces to write in order: over CBOR a binary field of 64 KiB or more is
        /// a piece of its own (the caller's bytes, not a copy).
        func framePieces(_ value: CDPValue) -> [Data] {
            switch self {
            case .json: return [frame(value)]
            case .cbor: return CDPCBOR.encodePieces(value)
            }
        }

        /// Parses one message without its framing.
        func decode(_ message: Data) throws -> CDPValue {
            switch self {
            case .json: return try CDPJSON.decode(message)
            case .cbor: return try CDPCBOR.decode(message)
            }
        }
    }
#endif
