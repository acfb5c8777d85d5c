#if Chromium
    extension CDP {
        /// `Page.navigate`.
        public struct Navigate: CDPCommand {
            /// The command's name.
            public static let method = "Page.navigate"
            /// Where to go.
            public var url: String
            /// The navigation's outcome.
            public struct Result: Decodable, Sendable {
                /// The main frame.
                public var frameId: String
                /// Set when the navigation failed (`net::ERR_ABORTED`).
                public var errorText: String?
            }
            /// Creates the command.
            public init(url: String) { self.url = url }
        }

        /// `Page.captureScreenshot` as PNG.
        public struct CaptureScreenshot: CDPCommand {
            /// The command's name.
            public static let method = "Page.captureScreenshot"
            /// `png`.
            public var format = "png"
            /// The image (binary: base64 on JSON, raw on CBOR, decoded either way).
            public struct Result: Decodable, Sendable {
                /// The PNG, base64-encoded.
                public var data: String
            }
            /// Creates the command.
            public init() {}
        }

        /// `Runtime.evaluate`, awaiting a promise and returning the value as JSON-like data.
        public struct Evaluate: CDPCommand {
            /// The command's name.
            public static let method = "Runtime.evaluate"
            /// The expression.
            public var expression: String
            /// Wait for a promise to settle.
            public var awaitPromise = true
            /// Return the value itself, not a handle.
            public var returnByValue = true
            /// The outcome.
            public struct Result: Decodable, Sendable {
                /// The value.
                public var result: RemoteObject
                /// Set when the expression threw.
                public var exceptionDetails: ExceptionDetails?
            }
            /// Creates the command.
            public init(expression: String) { self.expression = expression }
        }

        /// A JavaScript value, by value.
        public struct RemoteObject: Decodable, Sendable {
            /// `string`, `number`, `object`, `undefined`, …
            public var type: String
            /// The value (for `returnByValue`).
            public var value: CDPValue?
            /// A description (for errors and objects).
            public var description: String?
        }

        /// What an exception reports.
        public struct ExceptionDetails: Decodable, Sendable {
            /// The message.
            public var text: String
            /// The exception value.
            public var exception: RemoteObject?
        }
    }
#endif
