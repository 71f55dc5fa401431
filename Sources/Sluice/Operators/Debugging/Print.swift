extension Publishers {
    /// A publisher that writes a line for each of its events, as Combine's `print` does:
    /// `receive subscription: (…)`, `request max: (n)`, `receive value: (…)`,
    /// `receive finished`, `receive error: (…)`, `receive cancel`.
    ///
    /// Lines go to `stream`, or to standard output when it is `nil`; one line is written at a
    /// time even when events come from several threads. As in Combine, every subscription,
    /// request and cancel is written, also those before the upstream's subscription or after
    /// the end (a cancel before the subscription is otherwise ignored, as `handleEvents` says).
    ///
    /// Where a stream is written: made in actor-isolated code (``isolation``, the caller's actor by default),
    /// on that actor, as `handleEvents` calls its closures: a stream that is the actor's own (a main-actor
    /// log whose conformance is `@MainActor TextOutputStream`) is never written from the thread a subject was
    /// sent on. Lines of a value arriving on the actor are written at once; others after one hop, in order.
    /// Standard output, which any thread may write, takes no hop.
    public struct Print<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose events this one prints.
        public let upstream: Upstream

        /// Written before each line, with `": "`, unless empty.
        public let prefix: String

        /// Where the lines go; standard output when `nil`.
        public let stream: (any TextOutputStream)?

        /// The actor `stream` is written on; nil: on the thread of each event.
        public let isolation: (any Actor)?

        /// Creates a publisher printing the events of `upstream`, writing `stream` on
        /// `isolation` (the caller's actor by default).
        public init(
            upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil,
            isolation: (any Actor)? = #isolation
        ) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
            self.isolation = isolation
        }

        /// Subscribes `subscriber` through the printing subscription (and, writing a stream on
        /// an actor, through the hop to it).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isolation = deliveryActor
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
                cancel: runOn(isolation) { printer.write("receive cancel") },
                request: runOn(isolation) {
                    printer.write($0 == .unlimited ? "request unlimited" : "request max: (\($0.max ?? 0))")
                }
            )
            upstream.receive(
                subscriber: ObservingSubscription(
                    name: "Print",
                    hooks: hooks,
                    hooksAfterEnd: true,
                    downstream: subscriber
                ),
                isolation: isolation
            )
        }
    }
}

extension Publishers.Print: ActorDeliveringPublisher {
    /// The actor a stream is written on; standard output is written from any thread.
    @usableFromInline var deliveryActor: (any Actor)? { stream == nil ? nil : isolation }
}

/// Writes `print`'s lines to a stream or standard output, one at a time and in order, never
/// under its lock (rule 6): the lines wait in a ``DrainQueue``, and its runner (the thread that
/// found nobody writing) takes the stream out, writes every line queued meanwhile, and puts
/// the stream back under the lock that finds the queue empty.
final class EventPrinter: Sendable {
    /// Where the lines go.
    private enum Destination {
        case standardOutput
        case stream(any TextOutputStream)
    }

    private let prefix: String
    private let state: Locked<State>

    /// The destination while nobody writes (`nil` while the queue's runner has it out), and
    /// the lines waiting. Safe to send: reachable only under the lock, and a stream is used by
    /// one writer at a time (the runner), outside it.
    private struct State: @unchecked Sendable {
        var destination: Destination?
        var lines = DrainQueue<String>()
    }

    init(prefix: String, stream: (any TextOutputStream)?) {
        self.prefix = prefix.isEmpty ? "" : "\(prefix): "
        state = Locked(State(destination: stream.map(Destination.stream) ?? .standardOutput))
    }

    func write(_ line: String) {
        // The runner takes the destination out; any other writer only queues its line.
        let taken = state.withLock { state -> Destination? in
            guard state.lines.append(prefix + line) else { return nil }
            defer { state.destination = nil }
            return state.destination
        }
        guard var destination = taken else { return }
        while true {
            let step = state.withLock { state in
                let step = state.lines.next(budget: .max)
                if case .idle = step { state.destination = destination }
                return step
            }
            guard case .perform(let line) = step else { return }
            switch destination {
            case .standardOutput:
                Swift.print(line)
            case .stream(var stream):
                // The writes `Swift.print(line, to: &stream)` makes, as Combine's print does.
                stream.write("")
                stream.write(line)
                stream.write("\n")
                destination = .stream(stream)
            }
        }
    }
}

extension Publisher {
    /// Prints a line for each event (subscription, request, value, completion, cancel), for
    /// debugging; the events pass through unchanged.
    ///
    /// A stream is written on the actor of the code that called `print` (see
    /// ``Publishers/Print``), so a stream isolated to it is safe to pass.
    public func print(
        _ prefix: String = "", to stream: (any TextOutputStream)? = nil, isolation: (any Actor)? = #isolation
    ) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream, isolation: isolation)
    }
}
