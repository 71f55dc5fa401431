#if canImport(ObjectiveC)
import Foundation
import Sluice

/// The types whose key paths can be published with `publisher(for:options:)`: every `NSObject` (Combine's name).
public protocol _KeyValueCodingAndObservingPublishing {}

extension NSObject: _KeyValueCodingAndObservingPublishing {}

extension _KeyValueCodingAndObservingPublishing where Self: NSObject {
    /// A publisher of the values of the key-value-observable property at `keyPath`. With the default options, a
    /// subscriber receives the current value on its first demand, then each new value. See
    /// `NSObject.KeyValueObservingPublisher` for demand and threading.
    ///
    /// <!-- snippet: KeyValueObservingRate -->
    /// ```swift
    /// let cancellable = player.publisher(for: \.rate).sink { rate in button.isPlaying = rate > 0 }
    /// ```
    public func publisher<Value>(
        for keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [.initial, .new]
    ) -> NSObject.KeyValueObservingPublisher<Self, Value> {
        NSObject.KeyValueObservingPublisher(object: self, keyPath: keyPath, options: options)
    }
}

extension NSObject {
    /// A publisher of the values of one key-value-observable property of one object.
    ///
    /// Each subscriber gets its own key-value observation, started on its first demand (so with `.initial` the
    /// current value is its first value) and invalidated when it cancels. Each change emits the value read at
    /// that moment (with `.prior`, also once before the change). The publisher never completes. A change
    /// notified while the subscriber has no demand is dropped. Values arrive on the thread that changes it.
    public struct KeyValueObservingPublisher<Subject: NSObject, Value>: Equatable {
        /// The observed object.
        public let object: Subject
        /// The observed property.
        public let keyPath: KeyPath<Subject, Value>
        /// The key-value observing options each observation is made with.
        public let options: NSKeyValueObservingOptions

        /// A publisher of `object`'s property at `keyPath`, observed with `options`.
        public init(object: Subject, keyPath: KeyPath<Subject, Value>, options: NSKeyValueObservingOptions) {
            self.object = object
            self.keyPath = keyPath
            self.options = options
        }

        /// Whether both observe the same object (the same instance), key path and options.
        public static func == (
            lhs: NSObject.KeyValueObservingPublisher<Subject, Value>,
            rhs: NSObject.KeyValueObservingPublisher<Subject, Value>
        ) -> Bool {
            lhs.object === rhs.object && lhs.keyPath == rhs.keyPath && lhs.options == rhs.options
        }
    }
}

extension NSObject.KeyValueObservingPublisher: Sluice.Publisher {
    public typealias Output = Value
    public typealias Failure = Never

    /// Gives `subscriber` a subscription that starts observing on its first demand.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        subscriber.receive(subscription: KeyValueObservingSubscription(
            object: object, keyPath: keyPath, options: options, downstream: subscriber))
    }

    /// A publisher that emits `()` for each value this one emits: "the property changed".
    public func didChange() -> Publishers.Map<NSObject.KeyValueObservingPublisher<Subject, Value>, Void> {
        Publishers.Map(upstream: self) { _ in () }
    }
}

/// Starts the observation on the first demand, so that an `.initial` value finds demand.
private final class KeyValueObservingSubscription<Subject: NSObject, Value, Downstream: Subscriber>: Subscription,
    CustomStringConvertible
where Downstream.Input == Value, Downstream.Failure == Never {
    private let object: Subject
    private let keyPath: KeyPath<Subject, Value>
    private let options: NSKeyValueObservingOptions
    private let delivery: ObserverDelivery<Downstream, NSKeyValueObservation>

    init(
        object: Subject,
        keyPath: KeyPath<Subject, Value>,
        options: NSKeyValueObservingOptions,
        downstream: Downstream
    ) {
        self.object = object
        self.keyPath = keyPath
        self.options = options
        delivery = ObserverDelivery(downstream: downstream)
    }

    func request(_ demand: Subscribers.Demand) {
        guard delivery.request(demand) else { return }
        let keyPath = keyPath
        let entry = CallbackEntry<Subject> { [weak self] object in self?.delivery.offer(object[keyPath: keyPath]) }
        let observation = object.observe(keyPath, options: options) { object, _ in entry.run(object) }
        if !delivery.keep(observation) { observation.invalidate() }
    }

    func cancel() { delivery.end()?.invalidate() }

    var description: String { "KVOSubscription" }
}
#endif
