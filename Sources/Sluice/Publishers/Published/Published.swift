/// A type that publishes a property marked with an attribute.
///
/// `@Published` on a property of a class gives it a publisher, `$property`, that emits the current value to
/// each new subscriber (with its first demand), then each new value when the property is set — before it is
/// stored, as in Combine: a subscriber that reads the property then sees the old value. In an
/// ``ObservableObject``, setting it first makes the object's ``ObservableObject/objectWillChange`` emit.
/// `@Published` works on classes only (as in Combine, on a struct's property it does not compile). Reading
/// and setting are thread-safe; the subscribers run on the setting thread.
///
/// <!-- snippet: PublishedBeforeStored -->
/// ```swift
/// final class Weather {
///     @Published var temperature: Double
///     init(temperature: Double) { self.temperature = temperature }
/// }
///
/// let weather = Weather(temperature: 20)
/// var sent: [Double] = [], stored: [Double] = []
/// let cancellable = weather.$temperature.sink { sent.append($0); stored.append(weather.temperature) }
/// weather.temperature = 25        // sent == [20, 25], stored == [20, 20]: sent before it is stored
/// cancellable.cancel()
/// ```
@propertyWrapper
public struct Published<Value> {
    @usableFromInline let box: PublishedBox<Value>

    /// A published property with `wrappedValue` as its initial value (`@Published var x = 1`).
    public init(wrappedValue: Value) { box = PublishedBox(wrappedValue) }

    /// A published property with `initialValue` as its initial value.
    public init(initialValue: Value) { self.init(wrappedValue: initialValue) }

    /// Unavailable: `@Published` is only available on properties of classes.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's publisher, `$property`. Setting it (what `assign(to: &$property)` does)
    /// is how a pipeline is attached to the property; the publisher itself cannot be replaced.
    public var projectedValue: Publisher {
        get { Publisher(box: box) }
        // swiftlint:disable:next unused_setter_value
        set {}
    }

    /// The property as its class sees it: the stored value; setting it tells the object's
    /// `objectWillChange`, then the `$property` subscribers, then stores it.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].box.value }
        set { object[keyPath: storageKeyPath].box.set(newValue) }
    }

    /// The publisher of a `@Published` property (see ``Published``); it never completes. Each subscriber gets
    /// the value current when it first asks, then the values set after that for which it has demand (a value
    /// set while it has none is dropped, as for a `CurrentValueSubject`).
    public struct Publisher: Sluice.Publisher {
        public typealias Output = Value
        public typealias Failure = Never

        @usableFromInline let box: PublishedBox<Value>

        @usableFromInline init(box: PublishedBox<Value>) { self.box = box }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            box.subject.receive(subscriber: subscriber)
        }
    }
}

extension Publisher where Failure == Never {
    /// Sets a `@Published` property to each value this publisher sends, for as long as the property exists:
    /// the subscription ends with the object that owns the property (no `AnyCancellable` to keep), and holds
    /// the object only weakly, so a pipeline that feeds an object's own property makes no reference cycle.
    ///
    /// <!-- snippet: PublishedAssignTo -->
    /// ```swift
    /// final class TickCounter: ObservableObject {
    ///     @Published var latest = 0
    ///     init(ticks: some Publisher<Int, Never>) { ticks.assign(to: &$latest) }
    /// }
    /// ```
    ///
    /// Where the property is set: made in actor-isolated code (`isolation` defaults to the caller's actor,
    /// as in a main-actor model's `init`), on that actor, at once or after a hop, as a `sink` runs its
    /// closure; outside actors, on the thread the publisher sends from, as in Combine.
    public func assign(to published: inout Published<Output>.Publisher, isolation: (any Actor)? = #isolation) {
        let box = published.box
        let subscriber = Subscribers.Sink<Output, Never>(
            receiveCompletion: { _ in },
            receiveValue: { [weak box] value in
                box?.set(value)
            },
            isolation: isolation
        )
        box.keep(AnyCancellable(subscriber))
        subscribe(subscriber)
    }
}
