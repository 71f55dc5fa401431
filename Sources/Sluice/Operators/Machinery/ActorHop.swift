/// Where an operator's closures run: the machinery behind the `isolation` parameter of `map`,
/// `filter`, `handleEvents` and every other operator that calls user code while it delivers.
///
/// A closure written in actor-isolated code belongs to that actor (Swift 6 infers its isolation from where it
/// is formed), but a publisher may signal from any thread: a subject sent to from a detached task, a timer, a
/// `receive(on:)` a queue. So an operator made on an actor puts one hop in front of its own subscriber:
/// `receive(on:)` that actor, the same subscription (``ReceiveOnSubscription``) over the same ordered queue a
/// ``ClockScheduler`` for that actor uses (``ClockSchedulerQueue``). What the hop keeps, it keeps from them:
///
/// - order: one drain at a time delivers the subscription, the values and the completion in
///   the order the upstream sent them;
/// - demand: requests and cancels go straight upstream, and what the downstream returns from
///   `receive(_:)` (on the actor) is requested upstream; so the queue never holds more than the
///   downstream asked for (with `.unlimited` demand, it holds what the upstream sends meanwhile);
/// - no hop when none is needed: a signal that arrives already on the main actor for a
///   main-actor operator, with nothing queued before it, is delivered at once, inside the
///   upstream's call (the queue's inline run);
/// - cancel is prompt: a cancel empties the queue, so nothing queued is delivered after it (a
///   signal the actor is already delivering finishes);
/// - zero cost outside actors: with no isolation, the operator subscribes exactly as before.
///
/// A chain hops once: an operator whose upstream already delivers on the same actor (an
/// operator of this kind made on it, or `receive(on:)` that actor's ``ClockScheduler``; see
/// ``ActorDeliveringPublisher``) subscribes straight through, decided at subscribe time.
extension Publisher {
    /// Subscribes `subscriber` so that it receives every signal isolated to `isolation`: through
    /// a hop to that actor, unless this publisher already delivers there; with no isolation,
    /// as `receive(subscriber:)` (the path every operator outside actors takes).
    @inlinable @inline(__always)
    func receive<S: Subscriber>(subscriber: S, isolation: (any Actor)?) where S.Input == Output, S.Failure == Failure {
        guard let isolation else { return receive(subscriber: subscriber) }
        receive(subscriber: subscriber, hoppingTo: isolation)
    }

    /// The path of ``receive(subscriber:isolation:)`` on an actor: interposes the hop unless
    /// this publisher's signals already arrive on `actor`.
    @inlinable
    func receive<S: Subscriber>(
        subscriber: S,
        hoppingTo actor: any Actor
    ) where S.Input == Output, S.Failure == Failure {
        if deliversSignals(on: actor) {
            receive(subscriber: subscriber)
        } else {
            subscribe(ReceiveOnSubscription(
                downstream: subscriber,
                scheduler: ClockScheduler.hop(to: actor),
                options: nil,
                isImplicitHop: true
            ))
        }
    }

    /// Whether every signal this publisher sends a subscriber is isolated to `actor` (so that a
    /// hop to it would be a second one).
    @inlinable
    func deliversSignals(on actor: any Actor) -> Bool {
        guard let delivering = self as? any ActorDeliveringPublisher,
            let deliveryActor = delivering.deliveryActor
        else {
            return false
        }
        return deliveryActor === actor
    }

    /// This publisher, with its signals brought to `isolation` (itself when that is nil): for
    /// an operator whose closure runs in a subscriber it does not build itself (`catch`,
    /// `tryCatch` hand their upstream to a relay).
    @inlinable
    func hopping(to isolation: (any Actor)?) -> Publishers.ActorHop<Self> {
        Publishers.ActorHop(upstream: self, actor: isolation)
    }
}

extension Publishers {
    /// An upstream whose signals reach each subscriber isolated to `actor` (straight through
    /// when `actor` is nil): ``Publisher/receive(subscriber:isolation:)`` as a publisher.
    @usableFromInline
    struct ActorHop<Upstream: Publisher>: Publisher, ActorDeliveringPublisher {
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure
        @usableFromInline let upstream: Upstream
        @usableFromInline let actor: (any Actor)?

        @inlinable init(upstream: Upstream, actor: (any Actor)?) {
            self.upstream = upstream
            self.actor = actor
        }

        @inlinable var deliveryActor: (any Actor)? { actor }

        @inlinable
        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: subscriber, isolation: actor)
        }
    }
}

/// A publisher that can say, at subscribe time, that it signals its subscribers isolated to an actor: an
/// operator made on that actor (its closures run there, so its downstream is called there), or `receive(on:)`
/// an actor-backed scheduler. A downstream operator made on the same actor then needs no hop of its own.
@usableFromInline
protocol ActorDeliveringPublisher {
    /// The actor every signal to a subscriber is delivered on; nil when they come on whatever
    /// thread the upstream uses.
    var deliveryActor: (any Actor)? { get }
}

/// A scheduler that runs every action isolated to one actor (``ClockScheduler`` made with one).
@usableFromInline
protocol ActorBackedScheduler {
    /// The actor its actions run on; nil when they run elsewhere.
    var actor: (any Actor)? { get }
}

extension ClockScheduler: ActorBackedScheduler {}

extension Publishers.ReceiveOn: ActorDeliveringPublisher {
    /// The scheduler's actor: `receive(on: .mainActor)` delivers every signal there.
    @inlinable var deliveryActor: (any Actor)? { (scheduler as? any ActorBackedScheduler)?.actor }
}

extension ClockScheduler where C == ContinuousClock {
    /// The scheduler of one operator's hop to `actor`: a queue of its own (not the shared
    /// main-actor queue), so that a signal reaching the hop on the main actor runs inline
    /// whenever this hop has nothing queued, even while another main-actor queue is running.
    @inlinable
    static func hop(to actor: any Actor) -> Self {
        ClockScheduler(clock: ContinuousClock(), queue: ClockSchedulerQueue(actor: actor))
    }
}

/// The actor a closure fused from two operators' closures runs on (`map` after `map`, `filter`
/// after `filter`, as Combine fuses them): the one that has an actor. Two different actors
/// cannot meet here in checked code (an operator whose closure belongs to one actor is not
/// `Sendable`, so it cannot reach code isolated to another); should they, the later one wins.
@inlinable
func fusedIsolation(_ first: (any Actor)?, _ second: (any Actor)?) -> (any Actor)? {
    second ?? first
}

// MARK: Hooks called by the downstream

/// `hook`, made to run on `actor` (itself when `actor` is nil): for the closures of `handleEvents` that the
/// downstream's `request` and `cancel` call, which may come from any thread. Called on the main actor for a
/// main-actor hook with nothing queued, it runs at once; otherwise it runs on the actor soon after, in the
/// order of the calls (one ``ClockSchedulerQueue`` per subscription). The request or cancel itself goes
/// upstream at once either way.
@inlinable
func runOn<Argument: Sendable>(_ actor: (any Actor)?, _ hook: @escaping (Argument) -> Void) -> (Argument) -> Void {
    guard let actor else { return hook }
    let queue = ClockSchedulerQueue(actor: actor)
    let isolated = IsolatedHook(hook)
    return { argument in queue.enqueue({ isolated.run(argument) }, priority: nil) }
}

/// ``runOn(_:_:)-(_,(Argument)->Void)`` for a hook without an argument (`receiveCancel`).
@inlinable
func runOn(_ actor: (any Actor)?, _ hook: @escaping () -> Void) -> () -> Void {
    let run = runOn(actor) { (_: Void) in hook() }
    return { run(()) }
}

/// A hook closure written on an actor, on its way to a queue that runs it only there.
///
/// Safe because ``runOn(_:_:)-(_,(Argument)->Void)`` hands it only to a ``ClockSchedulerQueue`` for the
/// hook's own actor, which calls it isolated to that actor (inline only after checking it runs on the main
/// actor), one call at a time. "Its own actor" is the operator's `isolation:` argument, which the compiler
/// fills in with the caller's actor; an argument passed by hand is the caller's claim, not checked (the
/// threads article says so).
@usableFromInline
struct IsolatedHook<Argument>: @unchecked Sendable {
    @usableFromInline let run: (Argument) -> Void
    @inlinable init(_ run: @escaping (Argument) -> Void) { self.run = run }
}
