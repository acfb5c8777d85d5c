#if Chromium
    extension CDP {
        /// `Target.createTarget`: opens a page.
        public struct CreateTarget: CDPCommand {
            /// The command's name.
            public static let method = "Target.createTarget"
            /// The first URL.
            public var url: String
            /// Open in a new browser context (an incognito-like profile); `nil` uses the default one.
            public var browserContextId: String?
            /// Open the page in a window of its own (`true`), rather than as a tab of the last window.
            /// A tab that is not the active one is *hidden* (`document.visibilityState`), and Chromium
            /// defers media loading in hidden pages: an eager `<video>` never asks for its source.
            public var newWindow: Bool?
            /// The page's id.
            public struct Result: Decodable, Sendable {
                /// The target id of the new page.
                public var targetId: String
            }
            /// Creates the command.
            public init(url: String = "about:blank", browserContextId: String? = nil, newWindow: Bool? = nil) {
                self.url = url
                self.browserContextId = browserContextId
                self.newWindow = newWindow
            }
        }

        /// `Target.attachToTarget` in flatten mode: a session whose messages carry its `sessionId`.
        public struct AttachToTarget: CDPCommand {
            /// The command's name.
            public static let method = "Target.attachToTarget"
            /// The target.
            public var targetId: String
            /// Always `true`: SchemeKit routes sessions by `sessionId`.
            public var flatten = true
            /// The new session's id.
            public struct Result: Decodable, Sendable {
                /// The flattened session id.
                public var sessionId: String
            }
            /// Creates the command.
            public init(targetId: String) { self.targetId = targetId }
        }

        /// `Target.closeTarget`.
        public struct CloseTarget: CDPCommand {
            /// The command's name.
            public static let method = "Target.closeTarget"
            /// The target.
            public var targetId: String
            /// The result (ignored).
            public typealias Result = CDPEmptyResult
            /// Creates the command.
            public init(targetId: String) { self.targetId = targetId }
        }

        /// `Target.setDiscoverTargets`: report targets created, changed and destroyed.
        public struct SetDiscoverTargets: CDPCommand {
            /// The command's name.
            public static let method = "Target.setDiscoverTargets"
            /// Whether to discover.
            public var discover: Bool
            /// No result.
            public typealias Result = CDPEmptyResult
            /// Creates the command.
            public init(discover: Bool = true) { self.discover = discover }
        }

        /// `Target.setAutoAttach`: attach to every page (flattened), paused until released.
        public struct SetAutoAttach: CDPCommand {
            /// The command's name.
            public static let method = "Target.setAutoAttach"
            /// Whether to attach.
            public var autoAttach: Bool
            /// Hold new targets until `Runtime.runIfWaitingForDebugger`.
            public var waitForDebuggerOnStart: Bool
            /// Always `true`.
            public var flatten = true
            /// No result.
            public typealias Result = CDPEmptyResult
            /// Creates the command.
            public init(autoAttach: Bool = true, waitForDebuggerOnStart: Bool) {
                self.autoAttach = autoAttach
                self.waitForDebuggerOnStart = waitForDebuggerOnStart
            }
        }

        /// What a target is.
        public struct TargetInfo: Decodable, Sendable {
            /// Its id.
            public var targetId: String
            /// `page`, `iframe`, `service_worker`, `worker`, `browser`, …
            public var type: String
            /// Its URL.
            public var url: String
        }

        /// `Target.attachedToTarget`.
        public struct AttachedToTarget: Decodable, Sendable {
            /// The new session.
            public var sessionId: String
            /// The target.
            public var targetInfo: TargetInfo
            /// Whether the target waits for `Runtime.runIfWaitingForDebugger`.
            public var waitingForDebugger: Bool
        }

        /// `Target.detachedFromTarget`.
        public struct DetachedFromTarget: Decodable, Sendable {
            /// The session that ended.
            public var sessionId: String
            /// The target.
            public var targetId: String?
        }

        /// `Target.targetDestroyed` (and the target part of `Target.targetCrashed`).
        public struct TargetDestroyed: Decodable, Sendable {
            /// The target.
            public var targetId: String
        }
    }
#endif
