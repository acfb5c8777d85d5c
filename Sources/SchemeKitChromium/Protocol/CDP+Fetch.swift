#if Chromium
    extension CDP {
        /// `Fetch.enable`: pause requests matching the patterns.
        package struct FetchEnable: CDPCommand {
            /// The command's name.
            package static let method = "Fetch.enable"
            /// A pattern of requests to pause.
            package struct Pattern: Encodable, Sendable {
                /// A wildcard URL pattern (`https://app.localhost/*`).
                package var urlPattern: String
                /// `Request` (before the request is sent): SchemeKit answers it.
                package var requestStage = "Request"
            }
            /// The patterns.
            package var patterns: [Pattern]
            /// No result.
            package typealias Result = CDPEmptyResult
            /// Creates the command from URL patterns.
            package init(urlPatterns: [String]) {
                patterns = urlPatterns.map { Pattern(urlPattern: $0) }
            }
        }

        /// `Fetch.requestPaused`.
        package struct RequestPaused: Decodable, Sendable {
            /// The paused request's id in the Fetch domain.
            package var requestId: String
            /// The request.
            package var request: Request
            /// The frame that made the request (a page's main frame id is its target id).
            package var frameId: String?
            /// `Document`, `Script`, `Media`, `Fetch`, …
            package var resourceType: String?
            /// The request's id in the Network domain (matches `Network.loadingFailed`).
            package var networkId: String?
            /// Set when the request was paused at the response stage (not used by SchemeKit).
            package var responseStatusCode: Int?
        }

        /// A request as the Network domain describes it.
        package struct Request: Decodable, Sendable {
            /// The URL without its fragment.
            package var url: String
            /// The URL's fragment, with its `#`.
            package var urlFragment: String?
            /// The method.
            package var method: String
            /// The headers.
            package var headers: [String: String]
            /// The body as text, when it is not binary (deprecated by Chromium, still sent).
            package var postData: String?
            /// Whether there is a body.
            package var hasPostData: Bool?
            /// The body in parts; `bytes` is binary (base64 on JSON).
            package var postDataEntries: [PostDataEntry]?
        }

        /// A part of a request body.
        package struct PostDataEntry: Decodable, Sendable {
            /// The part's bytes (base64 decoded).
            package var bytes: String?
        }

        /// `Fetch.continueRequest`: let the request go to the network.
        package struct ContinueRequest: CDPCommand {
            /// The command's name.
            package static let method = "Fetch.continueRequest"
            /// The paused request.
            package var requestId: String
            /// No result.
            package typealias Result = CDPEmptyResult
            /// Creates the command.
            package init(requestId: String) { self.requestId = requestId }
        }

        /// `Fetch.failRequest`: fail the request with a network error.
        package struct FailRequest: CDPCommand {
            /// The command's name.
            package static let method = "Fetch.failRequest"
            /// The paused request.
            package var requestId: String
            /// A `Network.ErrorReason` (`Failed`, `Aborted`, `ConnectionRefused`, …).
            package var errorReason: String
            /// No result.
            package typealias Result = CDPEmptyResult
            /// Creates the command.
            package init(requestId: String, errorReason: String) {
                self.requestId = requestId
                self.errorReason = errorReason
            }
        }
    }
#endif
