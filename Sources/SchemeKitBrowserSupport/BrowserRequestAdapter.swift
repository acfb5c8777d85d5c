#if Chromium || Firefox
    package import SchemeKit

    /// A browser adapter that answers the requests a browser holds from a registry: the part of
    /// the request loop both engines share (start the registry task with a ``CollectingResponseSink``,
    /// arm the request timeout, register both with the request, start the task).
    ///
    /// Contract: the adapter keeps its requests in flight in `state` (``BrowserAdapterState``),
    /// an entry per request from the moment the browser holds it until it ends; a request whose
    /// entry is gone when its task is made has ended (the task is never started). ``requestTimedOut(_:)``
    /// stops the request's task and tells the browser it failed.
    package protocol BrowserRequestAdapter: AnyObject, CollectedResponseReceiver {
        /// The adapter's state, with the table of requests in flight.
        associatedtype State: BrowserAdapterState
        /// The registry that answers.
        var registry: SchemeRegistry { get }
        /// How long a request may take before it is stopped, or `nil` for no limit.
        var requestTimeout: Duration? { get }
        /// The adapter's state and its lock.
        var state: Locked<State> { get }
        /// The records of the requests that ended.
        var recordFeed: SchemeRequestRecordFeed { get }
        /// The request's timeout passed: stop its task, fail it in the browser.
        func requestTimedOut(_ requestId: String)
    }

    /// What an adapter's state holds: its requests in flight by the browser's request id, and its counters.
    package protocol BrowserAdapterState {
        /// One request in flight.
        associatedtype Entry: InflightRequest
        /// The requests in flight, by the browser's request id.
        var inflight: [String: Entry] { get set }
        /// The adapter's counters.
        var statistics: EngineAdapterStatistics { get set }
    }

    /// One request in flight: its registry task and its timeout, once started.
    package protocol InflightRequest {
        /// The registry task answering it, once started.
        var task: SchemeTask? { get set }
        /// The timer that stops it after the request timeout.
        var timer: Task<Void, Never>? { get set }
    }

    extension BrowserRequestAdapter {
        /// Counts `record` in the state (`count`, under the lock) and publishes it on
        /// ``recordFeed``; returns how many subscribers' full buffers dropped a record for it.
        package func broadcast(_ record: SchemeRequestRecord, count: (inout State) -> Void) -> Int {
            state.withLock { count(&$0) }
            return recordFeed.publish(record)
        }

        /// Counts `record` by its outcome in the adapter's statistics and publishes it on
        /// ``recordFeed`` (a record a full subscriber buffer dropped counts as dropped).
        package func publishEnded(_ record: SchemeRequestRecord) {
            let dropped = broadcast(record) { state in
                switch record.outcome {
                case .answered:
                    state.statistics.answered += 1
                    state.statistics.bytesAnswered += record.bytes
                case .continued: state.statistics.continued += 1
                case .failed: state.statistics.countFailure(record.error)
                case .stopped(let reason): state.statistics.countStop(reason)
                }
            }
            if dropped > 0 { state.withLock { $0.statistics.droppedRecords += dropped } }
        }

        /// Records `task` and `timer` on `requestId`'s entry: `false` when the request already ended.
        package func attach(_ task: SchemeTask, timer: Task<Void, Never>?, to requestId: String) -> Bool {
            state.withLock { state in
                guard state.inflight[requestId] != nil else { return false }
                state.inflight[requestId]?.task = task
                state.inflight[requestId]?.timer = timer
                return true
            }
        }

        /// Starts the registry task that answers `requestId` with `request`, collecting at most
        /// `bodyLimit` bytes of body, unless the request ended meanwhile.
        package func startTask(_ request: SchemeRequest, requestId: String, bodyLimit: Int) {
            let sink = CollectingResponseSink(receiver: self, requestId: requestId, limit: bodyLimit)
            let task = registry.task(for: request, sink: sink)
            var timer: Task<Void, Never>?
            if let timeout = requestTimeout {
                timer = Task { [weak self] in
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    self?.requestTimedOut(requestId)
                }
            }
            guard attach(task, timer: timer, to: requestId) else {
                timer?.cancel()
                return
            }
            task.start()
        }
    }

    extension LoopbackOriginClient where Self: BrowserRequestAdapter {
        /// Counts the request as intercepted.
        package func loopbackRequestBegan() {
            state.withLock { $0.statistics.intercepted += 1 }
        }

        /// Counts the request by its outcome and publishes its record.
        package func loopbackRequestEnded(_ record: SchemeRequestRecord) {
            publishEnded(record)
        }
    }
#endif
