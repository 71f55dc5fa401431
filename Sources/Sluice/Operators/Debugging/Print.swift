extension Publishers {
    /// A publisher that writes a line for each of its events, as Combine's `print` does:
    /// `receive subscription: (…)`, `request max: (n)`, `receive value: (…)`,
    /// `receive finished`, `receive error: (…)`, `receive cancel`.
    ///
    /// Lines go to `stream`, or to standard output when it is `nil`; one line is written at a
    /// time even when events come from several threads. As in Combine, every subscription,
    /// request and cancel is written, also those before the upstream's subscription or after
    /// the end (a cancel before the subscription is otherwise ignored, as `handleEvents` says).
    public struct Print<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose events this one prints.
        public let upstream: Upstream

        /// Written before each line, with `": "`, unless empty.
        public let prefix: String

        /// Where the lines go; standard output when `nil`.
        public let stream: (any TextOutputStream)?

        /// Creates a publisher printing the events of `upstream`.
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        /// Subscribes `subscriber` through the printing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let printer = EventPrinter(prefix: prefix, stream: stream)
            let hooks = EventHooks<Output, Failure>(
                subscription: { printer.write("receive subscription: (\($0))") },
                output: { printer.write("receive value: (\($0))") },
                completion: {
                    switch $0 {
                    case .finished: printer.write("receive finished")
                    case .failure(let error): printer.write("receive error: (\(error))")
                    }
                },
                cancel: { printer.write("receive cancel") },
                request: { printer.write($0 == .unlimited ? "request unlimited" : "request max: (\($0.max ?? 0))") })
            upstream.receive(subscriber: ObservingSubscription(name: "Print", hooks: hooks, hooksAfterEnd: true, downstream: subscriber))
        }
    }
}

/// Writes `print`'s lines to a stream or standard output, one at a time and in order, never
/// under its lock (rule 6): the thread that finds nobody writing takes the stream out and
/// writes every line queued meanwhile, then puts it back.
final class EventPrinter: Sendable {
    private let prefix: String
    private let state: Locked<State>

    /// The stream while nobody writes, and the lines waiting. Safe to send: reachable only
    /// under the lock, and the stream is used by one writer at a time, outside it.
    private struct State: @unchecked Sendable {
        var stream: (any TextOutputStream)?
        var toStandardOutput: Bool
        var writing = false
        var lines: [String] = []
    }

    init(prefix: String, stream: (any TextOutputStream)?) {
        self.prefix = prefix.isEmpty ? "" : "\(prefix): "
        state = Locked(State(stream: stream, toStandardOutput: stream == nil))
    }

    func write(_ line: String) {
        var taken = state.withLock { state -> State? in
            state.lines.append(prefix + line)
            if state.writing { return nil }
            state.writing = true
            defer { state.stream = nil }
            return state
        }
        while var batch = taken {
            for line in batch.lines {
                if batch.toStandardOutput {
                    Swift.print(line)
                } else {
                    // The writes `Swift.print(line, to: &stream)` makes, as Combine's print does.
                    batch.stream?.write("")
                    batch.stream?.write(line)
                    batch.stream?.write("\n")
                }
            }
            let written = batch.lines.count
            taken = state.withLock { state -> State? in
                state.lines.removeFirst(written)
                if state.lines.isEmpty {
                    state.writing = false
                    state.stream = batch.stream
                    return nil
                }
                batch.lines = state.lines
                return batch
            }
        }
    }
}

extension Publisher {
    /// Prints a line for each event (subscription, request, value, completion, cancel), for
    /// debugging; the events pass through unchanged.
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}
