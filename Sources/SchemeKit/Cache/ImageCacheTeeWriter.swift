import Foundation
import HTTPTypes
import Synchronization

/// A ``SchemeResponseWriter`` that forwards everything to the real writer and keeps a copy of
/// the response, so ``ImageCacheHandler`` can store what its upstream produced.
///
/// Every call is forwarded first and recorded only when the forward succeeded: after the engine
/// stops the task the base writer throws, the tee records the abort, and nothing is stored.
/// The copy is dropped as soon as the response turns out not to be storable (not 200, not
/// `image/*`, `Cache-Control: no-store`, or larger than the limit), so an unstorable stream
/// costs no memory.
final class ImageCacheTeeWriter<Base: SchemeResponseWriter>: SchemeForwardingWriter {
    struct State {
        var collecting = false
        var body = Data()
        var mimeType: String?
        var expectedLength: Int64?
        var finished = false
        var aborted = false
    }

    let base: Base
    private let limit: Int
    private let state = Locked(State())

    /// - Parameters:
    ///   - base: The real writer.
    ///   - limit: The largest body kept, in bytes; negative to keep nothing.
    init(base: Base, limit: Int) {
        self.base = base
        self.limit = limit
    }

    func writeHead(_ response: SchemeResponse) async throws {
        do {
            try await base.writeHead(response)
        } catch {
            state.withLock { $0.aborted = true }
            throw error
        }
        let cacheControl = response.headerFields[.cacheControl]?.lowercased() ?? ""
        let storable =
            limit >= 0 && response.status == .ok && (response.mimeType?.hasPrefix("image/") ?? false)
            && !cacheControl.contains("no-store") && (response.expectedContentLength ?? 0) <= Int64(limit)
        state.withLock { state in
            state.collecting = storable
            state.mimeType = response.mimeType
            state.expectedLength = response.expectedContentLength
        }
    }

    func write(_ body: SchemeBody) async throws {
        do {
            try await base.write(body)
        } catch {
            state.withLock { $0.aborted = true }
            throw error
        }
        state.withLock { state in
            guard state.collecting else { return }
            if state.body.count + body.count > limit {
                state.collecting = false
                state.body = Data()
            } else {
                body.withUnsafeBytes { state.body.append(contentsOf: $0) }
            }
        }
    }

    func finish() async throws {
        do {
            try await base.finish()
        } catch {
            state.withLock { $0.aborted = true }
            throw error
        }
        state.withLock { $0.finished = true }
    }

    func fail(_ error: any Error) async throws {
        state.withLock { $0.aborted = true }
        try await base.fail(error)
    }

    /// The image to store: set only when a storable response finished completely, with as many
    /// bytes as its `Content-Length` announced.
    var completedImage: CachedImage? {
        state.withLock { state in
            guard state.collecting, state.finished, !state.aborted, let mimeType = state.mimeType else { return nil }
            if let expected = state.expectedLength, expected != Int64(state.body.count) { return nil }
            return CachedImage(data: state.body, mimeType: mimeType)
        }
    }
}
