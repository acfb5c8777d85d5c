// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore
    import NIOHTTP1
    import SchemeKit

    /// Immediate answers as they last went out on one event loop, by representation: the HTTP head
    /// (header fields converted once, its `Date` refreshed once a second) and the body in a buffer
    /// NIO writes as it is.
    ///
    /// The key is the answer's ``SchemeKit/SchemeCollectedResponse/representationID`` (a cached
    /// file's head and body in one coding: equal ids are equal answers) with what the HTTP side adds
    /// from the request (version, keep-alive, the `Origin` CORS echoes). So a browser loading the
    /// same script on any connection of the loop gets it with no header conversion and no copy;
    /// a file that changes gets a new id, and its old entries age out.
    ///
    /// `@unchecked Sendable`: each instance is confined to its event loop (``Registry`` hands a
    /// connection the one of its loop); it is only created elsewhere.
    final class EncodedResponseCache: @unchecked Sendable {
        struct Key: Hashable {
            var representation: UInt64
            /// Which `--header` rules applied (``ResponsePlanner/Rules/key``).
            var rules: UInt64
            var major: Int
            var minor: Int
            var keepAlive: Bool
            /// The request's `Origin`, when the server echoes allowed origins (CORS), else `nil`.
            var origin: String?
        }

        struct Entry {
            var head: HTTPResponseHead
            var body: ByteBuffer?
            var date: String
        }

        /// The most bytes of bodies kept per event loop.
        static let byteLimit = 8 << 20
        /// The most entries kept per event loop.
        static let countLimit = 4096

        private var entries: [Key: Entry] = [:]
        private var bytes = 0
        /// The `Date` value, computed at most once a second for the loop.
        var dates = HTTPDateCache()

        /// The entry for `key`, its `Date` made current.
        func entry(_ key: Key) -> Entry? {
            guard var entry = entries[key] else { return nil }
            let date = dates.now()
            if date != entry.date {
                entry.date = date
                entry.head.headers.replaceOrAdd(name: "date", value: date)
                entries[key] = entry
            }
            return entry
        }

        /// Keeps `entry` under `key`; starts over when full (entries are cheap to make again).
        func store(_ entry: Entry, for key: Key) {
            let size = entry.body?.readableBytes ?? 0
            guard size <= Self.byteLimit / 8 else { return }
            if bytes + size > Self.byteLimit || entries.count >= Self.countLimit {
                entries.removeAll(keepingCapacity: true)
                bytes = 0
            }
            if let old = entries.updateValue(entry, forKey: key) { bytes -= old.body?.readableBytes ?? 0 }
            bytes += size
        }

        /// One cache per event loop, for every connection of a server.
        final class Registry: Sendable {
            private let caches = Locked<[ObjectIdentifier: EncodedResponseCache]>([:])

            /// The cache of `eventLoop` (made on first use). Called once per connection.
            func cache(for eventLoop: any EventLoop) -> EncodedResponseCache {
                caches.withLock { caches in
                    let id = ObjectIdentifier(eventLoop)
                    if let cache = caches[id] { return cache }
                    let cache = EncodedResponseCache()
                    caches[id] = cache
                    return cache
                }
            }
        }
    }
#endif
