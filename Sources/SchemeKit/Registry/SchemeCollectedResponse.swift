public import Foundation

/// A whole response in memory: what ``SchemeRegistry/response(for:limit:)`` and
/// ``SchemeRegistry/immediateResponse(for:)`` return.
public struct SchemeCollectedResponse: Sendable {
    /// The response head.
    public var head: SchemeResponse
    /// The whole body (empty for HEAD and for bodiless statuses).
    public var body: Data
    /// The name of the handler that answered (``SchemeHandler/name``), `not-found` for the
    /// registry's 404, or `nil` when not known.
    public var answeredBy: String?
    /// Names the exact head and body of this answer when they come from a cache that keeps them
    /// (a file's body cache entry): equal ids mean equal heads and bodies, so an engine may keep
    /// what it derived from them (an encoded HTTP head) under the id. `nil` otherwise.
    package var representationID: UInt64?
    /// Set when this answer depends on nothing but the request and one file's identity (see
    /// ``FileIdentityCheck``): the same request gets the same answer while the check holds.
    package var validator: FileIdentityCheck?

    /// Creates a collected response.
    public init(head: SchemeResponse, body: Data, answeredBy: String? = nil) {
        self.head = head
        self.body = body
        self.answeredBy = answeredBy
    }

    /// Why a response could not be collected.
    public enum Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// The body grew past `limit` bytes; the task was stopped there.
        case bodyTooLarge(limit: Int)
        /// The task ended without a response head (it was stopped by the engine side).
        case noResponse

        /// A one-line explanation.
        public var description: String {
            switch self {
            case .bodyTooLarge(let limit): "the response body is larger than the limit of \(limit) bytes"
            case .noResponse: "the task ended without a response"
            }
        }
    }
}
