/// A type of object with a publisher that emits before the object has changed.
///
/// By default an object gets an ``ObservableObjectPublisher`` that emits before any of its ``Published``
/// properties changes: one publisher per object, found through `Mirror` (its `@Published` properties,
/// its superclasses' included, share it), the same instance at every read of ``objectWillChange``. An
/// object without `@Published` properties gets a new publisher at each read, which never emits: declare
/// `let objectWillChange = ObservableObjectPublisher()` and call `send()` yourself instead.
///
/// <!-- snippet: ObservableObjectWillChange -->
/// ```swift
/// final class Contact: ObservableObject {
///     @Published var name: String
///     @Published var age: Int
///     init(name: String, age: Int) { self.name = name; self.age = age }
/// }
///
/// let john = Contact(name: "John Appleseed", age: 24)
/// var agesBeforeChange: [Int] = []
/// let cancellable = john.objectWillChange.sink { _ in agesBeforeChange.append(john.age) }
/// john.age += 1                   // agesBeforeChange == [24]: it emits before the change
/// cancellable.cancel()
/// ```
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object changes.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The object's one publisher, shared by all its `@Published` properties (made and handed
    /// to them at the first read; a new, silent one for an object without any).
    public var objectWillChange: ObservableObjectPublisher {
        var fields: [any PublishedField] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let field = child.value as? any PublishedField { fields.append(field) }
            }
            mirror = current.superclassMirror
        }
        guard let first = fields.first else { return ObservableObjectPublisher() }
        // The first field decides, under its lock, which publisher is the object's (two threads
        // reading at once get the same one); the others are given that one.
        let publisher = first.objectWillChange ?? first.install(ObservableObjectPublisher())
        for field in fields.dropFirst() { _ = field.install(publisher) }
        return publisher
    }
}

/// A publisher that emits before an object changes: the default ``ObservableObject/objectWillChange``.
///
/// Its subscribers receive `()` for each ``send()`` once they have requested any demand: as Combine's, it
/// takes a first request of any size as `.unlimited` (so `objectWillChange.values`, which asks for one
/// element at a time, traps when changes come while its loop body runs; put
/// `.buffer(size: 1, prefetch: .byRequest, whenFull: .dropOldest)` before `.values` to keep the latest).
/// It never completes. `send()` may be called from any thread, and reaches the subscribers on that thread.
public final class ObservableObjectPublisher: Publisher, Sendable {
    public typealias Output = Void
    public typealias Failure = Never

    @usableFromInline let subject = PassthroughSubject<Void, Never>(kind: .observableObject)

    /// Creates a publisher with no subscribers.
    public init() {}

    /// Tells the subscribers that the object is about to change.
    @inlinable
    public func send() { subject.send(()) }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }
}
