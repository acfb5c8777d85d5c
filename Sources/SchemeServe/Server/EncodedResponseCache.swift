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

        /// An answer kept under the request that asked for it: the request as it came (method,
        /// target, version and every header field, in order, byte for byte), the file check the
        /// answer depends on, and the response as it went out.
        struct Answer {
            var method: HTTPMethod
            var target: String
            var version: HTTPVersion
            var fields: HTTPHeaders
            var validator: FileIdentityCheck
            var entry: Entry
            var handler: String

            /// Whether `head` is the request this answer was made for, byte for byte.
            func matches(_ head: HTTPRequestHead) -> Bool {
                guard head.method == method, head.version == version, head.uri == target,
                    head.headers.count == fields.count
                else { return false }
                return zip(head.headers, fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
            }
        }

        private var entries: [Key: Entry] = [:]
        private var bytes = 0
        private var answers: [Int: Answer] = [:]
        private var answerBytes = 0
        /// The `Date` value, computed at most once a second for the loop.
        var dates = HTTPDateCache()

        /// The entry for `key`, its `Date` made current.
        func entry(_ key: Key) -> Entry? {
            guard var entry = entries[key] else { return nil }
            if refreshDate(&entry) { entries[key] = entry }
            return entry
        }

        /// The answer kept for exactly this request, when the file it was made from is unchanged
        /// (one `lstat`), its `Date` made current; with the name of the handler that made it.
        ///
        /// Only answers that depend on nothing but the request and one file are kept (see
        /// ``SchemeKit/FileIdentityCheck``), and every request field is part of the key, so a hit is
        /// the answer the whole path (Host check, guard, `--header` rules, handler chain, plan)
        /// would give again.
        func answer(for head: HTTPRequestHead) -> (entry: Entry, handler: String)? {
            let hash = Self.hash(head)
            guard var answer = answers[hash], answer.matches(head) else { return nil }
            guard answer.validator.isCurrent() else {
                answers.removeValue(forKey: hash)
                answerBytes -= answer.entry.body?.readableBytes ?? 0
                return nil
            }
            if refreshDate(&answer.entry) { answers[hash] = answer }
            return (answer.entry, answer.handler)
        }

        /// Keeps `entry` as the answer to `head`, valid while `validator` holds; starts over when
        /// full.
        func store(_ entry: Entry, answering head: HTTPRequestHead, validator: FileIdentityCheck, handler: String) {
            let size = entry.body?.readableBytes ?? 0
            guard size <= Self.byteLimit / 8 else { return }
            if answerBytes + size > Self.byteLimit || answers.count >= Self.countLimit {
                answers.removeAll(keepingCapacity: true)
                answerBytes = 0
            }
            let answer = Answer(
                method: head.method, target: head.uri, version: head.version, fields: head.headers,
                validator: validator, entry: entry, handler: handler)
            if let old = answers.updateValue(answer, forKey: Self.hash(head)) {
                answerBytes -= old.entry.body?.readableBytes ?? 0
            }
            answerBytes += size
        }

        /// The request's target, version and fields, hashed (the method is compared on a hit).
        private static func hash(_ head: HTTPRequestHead) -> Int {
            var hasher = Hasher()
            hasher.combine(head.uri)
            hasher.combine(head.version.minor)
            for field in head.headers {
                hasher.combine(field.name)
                hasher.combine(field.value)
            }
            return hasher.finalize()
        }

        /// Puts the current `Date` into `entry`'s head; `true` when it changed.
        private func refreshDate(_ entry: inout Entry) -> Bool {
            let date = dates.now()
            guard date != entry.date else { return false }
            entry.date = date
            entry.head.headers.replaceOrAdd(name: "date", value: date)
            return true
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
