#if Chromium
    import SchemeKitBrowserSupport

    extension CDP {
        /// `Page.navigate`.
        package struct Navigate: CDPCommand {
            /// The command's name.
            package static let method = "Page.navigate"
            /// Where to go.
            package var url: String
            /// The navigation's outcome.
            package struct Result: Decodable, Sendable {
                /// The main frame.
                package var frameId: String
                /// Set when the navigation failed (`net::ERR_ABORTED`).
                package var errorText: String?
                /// The new document's loader; absent for a same-document navigation (`#fragment`),
                /// which fires no `load`.
                package var loaderId: String?
            }
            /// Creates the command.
            package init(url: String) { self.url = url }
        }

        /// `Page.captureScreenshot` as PNG.
        package struct CaptureScreenshot: CDPCommand {
            /// The command's name.
            package static let method = "Page.captureScreenshot"
            /// `png`.
            package var format = "png"
            /// The image (binary: base64 on JSON, raw on CBOR, decoded either way).
            package struct Result: Decodable, Sendable {
                /// The PNG, base64-encoded.
                package var data: String
            }
            /// Creates the command.
            package init() {}
        }

        /// `Runtime.evaluate`, awaiting a promise and returning the value as JSON-like data.
        package struct Evaluate: CDPCommand {
            /// The command's name.
            package static let method = "Runtime.evaluate"
            /// The expression.
            package var expression: String
            /// Wait for a promise to settle.
            package var awaitPromise = true
            /// Return the value itself, not a handle.
            package var returnByValue = true
            /// The outcome.
            package struct Result: Decodable, Sendable {
                /// The value.
                package var result: RemoteObject
                /// Set when the expression threw.
                package var exceptionDetails: ExceptionDetails?
            }
            /// Creates the command.
            package init(expression: String) { self.expression = expression }
        }

        /// A JavaScript value, by value.
        package struct RemoteObject: Decodable, Sendable {
            /// `string`, `number`, `object`, `undefined`, …
            package var type: String
            /// The value (for `returnByValue`).
            package var value: CDPValue?
            /// A description (for errors and objects).
            package var description: String?
        }

        /// What an exception reports.
        package struct ExceptionDetails: Decodable, Sendable {
            /// The message.
            package var text: String
            /// The exception value.
            package var exception: RemoteObject?
        }
    }
#endif
