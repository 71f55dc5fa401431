/// A type-erasing subscriber.
///
/// Wraps a subscriber, a subject, or three closures, hiding the concrete type.
///
/// Made from closures, it is a subscriber without a class of its own; the demand its
/// `receiveValue` returns adds to what it requested:
///
/// <!-- snippet: AnySubscriberClosures -->
/// ```swift
/// var received: [Int] = []
/// let firstTwo = AnySubscriber<Int, Never>(
///     receiveSubscription: { $0.request(.max(1)) },
///     receiveValue: { received.append($0); return received.count < 2 ? .max(1) : .none })
/// (1...5).publisher.subscribe(firstTwo)   // received == [1, 2]
/// ```
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    internal let box: AnySubscriberBox<Input, Failure>

    /// The identifier of the wrapped subscriber (or of this wrapper, for closures).
    public let combineIdentifier: CombineIdentifier

    /// Creates a type-erasing subscriber to wrap an existing subscriber.
    @inlinable
    public init<S: Subscriber>(_ s: S) where S.Input == Input, S.Failure == Failure {
        if let already = s as? AnySubscriber<Input, Failure> {
            self = already
            return
        }
        box = SubscriberBox(s)
        combineIdentifier = s.combineIdentifier
    }

    /// Creates a type-erasing subscriber that forwards everything it receives to a subject, as
    /// `publisher.subscribe(subject)` does: the subject gets the first subscription (a later one is
    /// cancelled), described as `"Subject"`, then the values and the first completion, nothing after
    /// it. It holds the subject until the stream ends or is cancelled, as Combine's does.
    public init<S: Subject>(_ s: S) where S.Output == Input, S.Failure == Failure {
        self.init(SubjectSubscriber(s, strongly: true))
    }

    /// Creates a type-erasing subscriber running the given closures; a missing one does nothing or returns `.none`.
    ///
    /// Made outside any actor, the closures run on the publisher's thread, as Combine's. Made in
    /// actor-isolated code (`isolation` defaults to the caller's actor), they run on that actor, as a
    /// `sink`'s do: each signal, the subscription first, reaches them there in the order it arrived (at once
    /// when it already arrives on the main actor for a main-actor subscriber with nothing queued, else after
    /// a hop). Across a hop the demand `receiveValue` returns is requested from the subscription instead of
    /// returned, which adds up to the same demand, later; a subject drops what it sends before that request
    /// arrives, as it does behind `receive(on:)`.
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) {
        if let isolation {
            box = IsolatedClosureSubscriberBox(
                receiveSubscription: receiveSubscription, receiveValue: receiveValue,
                receiveCompletion: receiveCompletion, actor: isolation)
        } else {
            box = ClosureSubscriberBox(receiveSubscription: receiveSubscription, receiveValue: receiveValue,
                                       receiveCompletion: receiveCompletion)
        }
        combineIdentifier = CombineIdentifier()
    }

    /// Forwards the subscription to the wrapped subscriber.
    @inlinable
    public func receive(subscription: any Subscription) {
        box.receive(subscription: subscription)
    }

    /// Forwards a value to the wrapped subscriber and returns its demand.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        box.receiveEntry(box, value)
    }

    /// Forwards the completion to the wrapped subscriber.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        box.receive(completion: completion)
    }

    /// The wrapped subscriber's description.
    public var description: String { box.description }

    /// The wrapped subscriber's mirror.
    public var customMirror: Mirror { box.customMirror }

    /// The same as ``description``, for playgrounds.
    public var playgroundDescription: Any { description }
}

// A subject calls a wrapped sink (or any ``SubjectDeliveredSubscriber``) through its entries, as
// it would call it unwrapped: the wrapper stands for it (its identifier is the sink's).
extension AnySubscriber: SubjectDeliveredSubscriber {
    @inlinable
    func makeSubjectEntries() -> SubjectEntries<Input, Failure>? { box.subjectEntries(box) }
}

/// The box behind ``AnySubscriber``: one virtual call per subscription or completion, and for each value
/// a closure made where the wrapped type was known, so its `receive(_:)` runs specialised.
@usableFromInline
internal class AnySubscriberBox<Input, Failure: Error> {
    @usableFromInline let receiveEntry: (AnySubscriberBox, Input) -> Subscribers.Demand
    /// The wrapped subscriber's entries, if a subject may call it through them.
    @usableFromInline let subjectEntries: (AnySubscriberBox) -> SubjectEntries<Input, Failure>?

    @inlinable
    init(
        receiveEntry: @escaping (AnySubscriberBox, Input) -> Subscribers.Demand,
        subjectEntries: @escaping (AnySubscriberBox) -> SubjectEntries<Input, Failure>?
    ) {
        self.receiveEntry = receiveEntry
        self.subjectEntries = subjectEntries
    }

    @usableFromInline func receive(subscription: any Subscription) { abstract() }
    @usableFromInline func receive(completion: Subscribers.Completion<Failure>) { abstract() }
    @usableFromInline var description: String { abstract() }
    @usableFromInline var customMirror: Mirror { abstract() }
    private func abstract() -> Never { fatalError("AnySubscriberBox is abstract") }
}

@usableFromInline
internal final class SubscriberBox<Base: Subscriber>: AnySubscriberBox<Base.Input, Base.Failure> {
    @usableFromInline let base: Base

    @inlinable
    init(_ base: Base) {
        self.base = base
        super.init(
            receiveEntry: { box, value in unsafeDowncast(box, to: SubscriberBox.self).base.receive(value) },
            subjectEntries: { box in unsafeDowncast(box, to: SubscriberBox.self).baseSubjectEntries() })
    }

    /// The cast folds away in the specialised code, as in ``SubjectReceiver``.
    @inlinable
    func baseSubjectEntries() -> SubjectEntries<Base.Input, Base.Failure>? {
        guard let delivered = base as? any SubjectDeliveredSubscriber else { return nil }
        return Self.entries(of: delivered)
    }

    @inlinable
    static func entries<D: SubjectDeliveredSubscriber>(of subscriber: D) -> SubjectEntries<Base.Input, Base.Failure>? {
        subscriber.makeSubjectEntries() as? SubjectEntries<Base.Input, Base.Failure>
    }

    @inlinable override func receive(subscription: any Subscription) { base.receive(subscription: subscription) }
    @inlinable override func receive(completion: Subscribers.Completion<Base.Failure>) {
        base.receive(completion: completion)
    }
    @usableFromInline override var description: String { String(describing: base) }
    @usableFromInline override var customMirror: Mirror { Mirror(reflecting: base) }
}

/// ``AnySubscriber``'s closures, made outside any actor: called on the publisher's thread.
private final class ClosureSubscriberBox<Input, Failure: Error>: AnySubscriberBox<Input, Failure> {
    let receiveSubscriptionBody: ((any Subscription) -> Void)?
    let receiveValueBody: ((Input) -> Subscribers.Demand)?
    let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?

    init(receiveSubscription: ((any Subscription) -> Void)?, receiveValue: ((Input) -> Subscribers.Demand)?,
         receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?) {
        receiveSubscriptionBody = receiveSubscription
        receiveValueBody = receiveValue
        receiveCompletionBody = receiveCompletion
        super.init(
            receiveEntry: { box, value in
                unsafeDowncast(box, to: ClosureSubscriberBox.self).receiveValueBody?(value) ?? .none
            },
            subjectEntries: { _ in nil })
    }

    override func receive(subscription: any Subscription) { receiveSubscriptionBody?(subscription) }
    override func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody?(completion) }
    override var description: String { "Anonymous AnySubscriber" }
    /// The description's, as Combine's anonymous subscriber mirrors: a string, no children.
    override var customMirror: Mirror { Mirror(reflecting: description) }
}

/// ``AnySubscriber``'s closures, made in code isolated to `actor`: ``ActorDelivery`` performs every
/// signal on that actor in arrival order; the demand `receiveValue` returns is requested there.
private final class IsolatedClosureSubscriberBox<Input, Failure: Error>: AnySubscriberBox<Input, Failure>,
    ActorBoundSubscriber
{
    let receiveSubscriptionBody: ((any Subscription) -> Void)?
    let receiveValueBody: ((Input) -> Subscribers.Demand)?
    let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?
    let delivery: ActorDelivery<IsolatedClosureSubscriberBox>
    /// The subscription, for the demand `receiveValue` returns; touched only in ``perform(_:)``, on the actor.
    var subscription: (any Subscription)?

    init(receiveSubscription: ((any Subscription) -> Void)?, receiveValue: ((Input) -> Subscribers.Demand)?,
         receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?, actor: any Actor) {
        receiveSubscriptionBody = receiveSubscription
        receiveValueBody = receiveValue
        receiveCompletionBody = receiveCompletion
        delivery = ActorDelivery(actor: actor)
        super.init(
            receiveEntry: { box, value in
                let box = unsafeDowncast(box, to: IsolatedClosureSubscriberBox.self)
                box.delivery.deliver(.value(value), to: box)
                return .none
            },
            subjectEntries: { _ in nil })
    }

    override func receive(subscription: any Subscription) { delivery.deliver(.subscription(subscription), to: self) }
    override func receive(completion: Subscribers.Completion<Failure>) {
        delivery.deliver(.completion(completion), to: self)
    }

    func perform(_ event: SubscriberEvent<Input, Failure>) {
        switch event {
        case .subscription(let subscription):
            self.subscription = subscription
            receiveSubscriptionBody?(subscription)
        case .value(let value):
            let more = receiveValueBody?(value) ?? .none
            if more > .none { subscription?.request(more) }
        case .completion(let completion):
            subscription = nil
            receiveCompletionBody?(completion)
        }
    }

    override var description: String { "Anonymous AnySubscriber" }
    /// The description's, as Combine's anonymous subscriber mirrors: a string, no children.
    override var customMirror: Mirror { Mirror(reflecting: description) }
}
