/// A subject that wraps a single value and publishes a new element whenever it changes.
///
/// Each subscriber receives the current value with its first demand, then every later value for which it has
/// demand. A value sent while it has no demand is not queued, but its next `request` delivers the value
/// current then, as Combine's does (demand returned from `receive(_:)` waits for the next `send`): a lagging
/// `for await` over ``Publisher/values`` skips to the latest value. Setting ``value`` sends it. Once
/// completed, the subject sends nothing more (``value`` can still be read and set), and a later subscriber
/// receives the completion at once. `send` is thread-safe and may wait, as ``PassthroughSubject``'s. A
/// subscription keeps the subject alive until it is cancelled or completes, as in Combine.
///
/// <!-- snippet: CurrentValueSubjectReplay -->
/// ```swift
/// let temperature = CurrentValueSubject<Int, Never>(20)
/// var readings: [Int] = []
/// var cancellables = Set<AnyCancellable>()
/// temperature.sink { readings.append($0) }.store(in: &cancellables)   // 20, at once
/// temperature.value = 21
/// temperature.send(22)                                                // readings == [20, 21, 22]
/// ```
public final class CurrentValueSubject<Output, Failure: Error>: Subject, CustomStringConvertible {
    @usableFromInline let storage: SubjectStorage<Output, Failure>

    /// Creates a subject with the given initial value.
    public init(_ value: Output) {
        storage = SubjectStorage(currentValue: value)
    }

    /// The subject behind `@Published`, whose subscriptions are named as Combine's (`"PublishedSubject"`).
    init(_ value: Output, kind: SubjectKind) {
        storage = SubjectStorage(currentValue: value, kind: kind)
    }

    deinit { storage.cancelUpstreams() }

    /// The current value; setting it sends the new value to the subscribers.
    @inlinable
    public var value: Output {
        get { storage.currentValue! }
        set {
            storage.send(newValue, setCurrent: true, evenIfCompleted: true)
        }
    }

    /// Makes `value` current and sends it to every subscriber with demand; does nothing after completion.
    @inlinable
    public func send(_ value: Output) {
        storage.send(value, setCurrent: true)
    }

    /// Sends a completion to every subscriber; the subject sends nothing after it.
    public func send(completion: Subscribers.Completion<Failure>) {
        storage.send(completion: completion)
    }

    /// Keeps the upstream subscription (cancelled at the subject's deinit) and requests `.unlimited` at once,
    /// as Combine's does: every value it receives becomes current, whether or not anyone listens.
    public func send(subscription: any Subscription) {
        storage.send(subscription: subscription)
    }

    /// Adds a subscriber; it gets the current value with its first demand (after completion: the completion).
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        storage.subscribe(subscriber, to: self)
    }

    /// `"CurrentValueSubject"`, as Combine prints it.
    public var description: String { "CurrentValueSubject" }
}

// Sendable: its one stored property is the storage; values cross threads, so only if `Output` is.
extension CurrentValueSubject: Sendable where Output: Sendable {}
