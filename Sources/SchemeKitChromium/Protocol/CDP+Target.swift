#if Chromium
    extension CDP {
        /// `Target.createTarget`: opens a page.
        package struct CreateTarget: CDPCommand {
            /// The command's name.
            package static let method = "Target.createTarget"
            /// The first URL.
            package var url: String
            /// Open in a new browser context (an incognito-like profile); `nil` uses the default one.
            package var browserContextId: String?
            /// Open the page in a window of its own (`true`), rather than as a tab of the last window.
            /// A tab that is not the active one is *hidden* (`document.visibilityState`), and Chromium
            /// defers media loading in hidden pages: an eager `<video>` never asks for its source.
            package var newWindow: Bool?
            /// The page's id.
            package struct Result: Decodable, Sendable {
                /// The target id of the new page.
                package var targetId: String
            }
            /// Creates the command.
            package init(url: String = "about:blank", browserContextId: String? = nil, newWindow: Bool? = nil) {
                self.url = url
                self.browserContextId = browserContextId
                self.newWindow = newWindow
            }
        }

        /// `Target.attachToTarget` in flatten mode: a session whose messages carry its `sessionId`.
        package struct AttachToTarget: CDPCommand {
            /// The command's name.
            package static let method = "Target.attachToTarget"
            /// The target.
            package var targetId: String
            /// Always `true`: SchemeKit routes sessions by `sessionId`.
            package var flatten = true
            /// The new session's id.
            package struct Result: Decodable, Sendable {
                /// The flattened session id.
                package var sessionId: String
            }
            /// Creates the command.
            package init(targetId: String) { self.targetId = targetId }
        }

        /// `Target.closeTarget`.
        package struct CloseTarget: CDPCommand {
            /// The command's name.
            package static let method = "Target.closeTarget"
            /// The target.
            package var targetId: String
            /// The result (ignored).
            package typealias Result = CDPEmptyResult
            /// Creates the command.
            package init(targetId: String) { self.targetId = targetId }
        }

        /// `Target.setDiscoverTargets`: report targets created, changed and destroyed.
        package struct SetDiscoverTargets: CDPCommand {
            /// The command's name.
            package static let method = "Target.setDiscoverTargets"
            /// Whether to discover.
            package var discover: Bool
            /// No result.
            package typealias Result = CDPEmptyResult
            /// Creates the command.
            package init(discover: Bool = true) { self.discover = discover }
        }

        /// `Target.setAutoAttach`: attach to every page (flattened), paused until released.
        package struct SetAutoAttach: CDPCommand {
            /// The command's name.
            package static let method = "Target.setAutoAttach"
            /// Whether to attach.
            package var autoAttach: Bool
            /// Hold new targets until `Runtime.runIfWaitingForDebugger`.
            package var waitForDebuggerOnStart: Bool
            /// Always `true`.
            package var flatten = true
            /// No result.
            package typealias Result = CDPEmptyResult
            /// Creates the command.
            package init(autoAttach: Bool = true, waitForDebuggerOnStart: Bool) {
                self.autoAttach = autoAttach
                self.waitForDebuggerOnStart = waitForDebuggerOnStart
            }
        }

        /// What a target is.
        package struct TargetInfo: Decodable, Sendable {
            /// Its id.
            package var targetId: String
            /// `page`, `iframe`, `service_worker`, `worker`, `browser`, …
            package var type: String
            /// Its URL.
            package var url: String
        }

        /// `Target.attachedToTarget`.
        package struct AttachedToTarget: Decodable, Sendable {
            /// The new session.
            package var sessionId: String
            /// The target.
            package var targetInfo: TargetInfo
            /// Whether the target waits for `Runtime.runIfWaitingForDebugger`.
            package var waitingForDebugger: Bool
        }

        /// `Target.detachedFromTarget`.
        package struct DetachedFromTarget: Decodable, Sendable {
            /// The session that ended.
            package var sessionId: String
            /// The target.
            package var targetId: String?
        }

        /// `Target.targetDestroyed` (and the target part of `Target.targetCrashed`).
        package struct TargetDestroyed: Decodable, Sendable {
            /// The target.
            package var targetId: String
        }
    }
#endif
