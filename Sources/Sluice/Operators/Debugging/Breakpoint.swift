#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Publishers {
    /// A publisher that stops in the debugger (raises `SIGTRAP`) when one of its closures says
    /// so for an event; the events pass through unchanged.
    ///
    /// Without a debugger attached, `SIGTRAP` ends the process.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose events this one examines.
        public let upstream: Upstream

        /// Stops when it returns `true` for the subscription.
        public let receiveSubscription: ((any Subscription) -> Bool)?

        /// Stops when it returns `true` for an element.
        public let receiveOutput: ((Upstream.Output) -> Bool)?

        /// Stops when it returns `true` for the completion.
        public let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher that stops in the debugger when a closure returns `true`.
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Subscribes `subscriber` through the examining subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (onSubscription, onOutput, onCompletion) = (receiveSubscription, receiveOutput, receiveCompletion)
            let hooks = EventHooks<Output, Failure>(
                subscription: { if onSubscription?($0) == true { stopInDebugger() } },
                output: { if onOutput?($0) == true { stopInDebugger() } },
                completion: { if onCompletion?($0) == true { stopInDebugger() } },
                cancel: nil, request: nil)
            upstream.receive(subscriber: ObservingSubscription(name: "Breakpoint", hooks: hooks, downstream: subscriber), isolation: isolation)
        }
    }
}

/// Raises `SIGTRAP`: a debugger stops here; without one, the process ends.
func stopInDebugger() {
    #if os(Windows)
    fatalError("Sluice: breakpoint reached (no SIGTRAP on Windows)")
    #else
    raise(SIGTRAP)
    #endif
}

extension Publisher {
    /// Stops in the debugger when a closure returns `true` for an event.
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, isolation: isolation)
    }

    /// Stops in the debugger when the upstream fails.
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { if case .failure = $0 { true } else { false } })
    }
}

extension Publishers.Breakpoint: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
