#if Chromium
    extension CDP {
        /// `Fetch.enable`: pause requests matching the patterns.
        public struct FetchEnable: CDPCommand {
            /// The command's name.
            public static let method = "Fetch.enable"
            /// A pattern of requests to pause.
            public struct Pattern: Encodable, Sendable {
                /// A wildcard URL pattern (`https://app.localhost/*`).
                public var urlPattern: String
                /// `Request` (before the request is sent): SchemeKit answers it.
                public var requestStage = "Request"
            }
            /// The patterns.
            public var patterns: [Pattern]
            /// No result.
            public typealias Result = CDPEmptyResult
            /// Creates the command from URL patterns.
            public init(urlPatterns: [String]) {
                patterns = urlPatterns.map { Pattern(urlPattern: $0) }
            }
        }

        /// `Fetch.requestPaused`.
        public struct RequestPaused: Decodable, Sendable {
            /// The paused request's id in the Fetch domain.
            public var requestId: String
            /// The request.
            public var request: Request
            /// The frame that made the request (a page's main frame id is its target id).
            public var frameId: String?
            /// `Document`, `Script`, `Media`, `Fetch`, …
            public var resourceType: String?
            /// The request's id in the Network domain (matches `Network.loadingFailed`).
            public var networkId: String?
            /// Set when the request was paused at the response stage (not used by SchemeKit).
            public var responseStatusCode: Int?
        }

        /// A request as the Network domain describes it.
        public struct Request: Decodable, Sendable {
            /// The URL without its fragment.
            public var url: String
            /// The URL's fragment, with its `#`.
            public var urlFragment: String?
            /// The method.
            public var method: String
            /// The headers.
            public var headers: [String: String]
            /// The body as text, when it is not binary (deprecated by Chromium, still sent).
            public var postData: String?
            /// Whether there is a body.
            public var hasPostData: Bool?
            /// The body in parts; `bytes` is binary (base64 on JSON).
            public var postDataEntries: [PostDataEntry]?
        }

        /// A part of a request body.
        public struct PostDataEntry: Decodable, Sendable {
            /// The part's bytes (base64 decoded).
            public var bytes: String?
        }

        /// `Fetch.continueRequest`: let the request go to the network.
        public struct ContinueRequest: CDPCommand {
            /// The command's name.
            public static let method = "Fetch.continueRequest"
            /// The paused request.
            public var requestId: String
            /// No result.
            public typealias Result = CDPEmptyResult
            /// Creates the command.
            public init(requestId: String) { self.requestId = requestId }
        }

        /// `Fetch.failRequest`: fail the request with a network error.
        public struct FailRequest: CDPCommand {
            /// The command's name.
            public static let method = "Fetch.failRequest"
            /// The paused request.
            public var requestId: String
            /// A `Network.ErrorReason` (`Failed`, `Aborted`, `ConnectionRefused`, …).
            public var errorReason: String
            /// No result.
            public typealias Result = CDPEmptyResult
            /// Creates the command.
            public init(requestId: String, errorReason: String) {
                self.requestId = requestId
                self.errorReason = errorReason
            }
        }
    }
#endif
