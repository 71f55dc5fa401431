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
    /// As in Combine, the downstream gets the upstream's subscription itself (its requests and
    /// cancel go straight upstream), and whatever the upstream sends is passed on, unguarded.
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

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
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

        /// Subscribes `subscriber` to the upstream through the examining subscriber.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = BreakpointStep(
                subscription: receiveSubscription,
                output: receiveOutput,
                completion: receiveCompletion
            )
            upstream.receive(subscriber: OperatorSubscriber(step: step, downstream: subscriber), isolation: isolation)
        }
    }
}

/// The step of `breakpoint`: stops in the debugger where a closure says so, and passes
/// everything on unchanged (the upstream's subscription too, as Combine's does).
struct BreakpointStep<Input, Failure: Error>: OperatorStep {
    typealias Output = Input
    typealias UpstreamFailure = Failure
    let subscription: ((any Subscription) -> Bool)?
    let output: ((Input) -> Bool)?
    let completion: ((Subscribers.Completion<Failure>) -> Bool)?
    var name: String { "Breakpoint" }
    static var mirror: StepMirror { .empty }

    func receive(_ input: Input) -> StepResult<Input, Failure> {
        if output?(input) == true { stopInDebugger() }
        return .emit(input)
    }
    func observe(subscription: any Subscription) {
        if self.subscription?(subscription) == true { stopInDebugger() }
    }
    func observe(completion: Subscribers.Completion<Failure>) {
        if self.completion?(completion) == true { stopInDebugger() }
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
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
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
