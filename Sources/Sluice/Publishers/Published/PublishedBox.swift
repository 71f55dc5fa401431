/// The storage of one `@Published` property, shared by every copy of its wrapper (in the object, from
/// `Mirror`, in each `$property` publisher): the value, its subject, the object's `objectWillChange` once
/// read, and the subscriptions `assign(to:)` attached, cancelled with the property.
@usableFromInline
final class PublishedBox<Value> {
    @usableFromInline
    struct State {
        @usableFromInline var value: Value
        @usableFromInline var objectWillChange: ObservableObjectPublisher?
        @usableFromInline var assignments: [AnyCancellable] = []
        /// The number of the set whose value `value` is (see ``set(_:)``).
        @usableFromInline var storedSet: UInt64 = 0
    }

    @usableFromInline let state: Locked<State>
    @usableFromInline let subject: CurrentValueSubject<Value, Never>

    @usableFromInline
    init(_ value: Value) {
        state = Locked(State(value: value))
        subject = CurrentValueSubject(value, kind: .published)
    }

    @inlinable var value: Value { state.withLock { $0.value } }

    /// `objectWillChange` first, then the subscribers (who still read the old value), then the store.
    /// Each set is numbered under the subject's lock, where its value takes its place in every
    /// subscriber's order, and is stored only if no later set was: after concurrent sets, the stored
    /// value is the one every subscriber received last (no lock is held while they are called: rule 6).
    @inlinable
    func set(_ newValue: Value) {
        state.withLock { $0.objectWillChange }?.send()
        var number: UInt64 = 0
        subject.storage.send(newValue, setCurrent: true) { subject in
            subject.publishedSets &+= 1
            number = subject.publishedSets
            return true
        }
        state.withLock { state in
            guard number > state.storedSet else { return }
            state.value = newValue
            state.storedSet = number
        }
    }

    /// Keeps an `assign(to:)` subscription until the property goes.
    func keep(_ assignment: AnyCancellable) {
        state.withLock { $0.assignments.append(assignment) }
    }
}

/// What `ObservableObject`'s default `objectWillChange` finds in an object through `Mirror`:
/// a `@Published` property's storage, to hand the object's publisher to.
protocol PublishedField {
    /// The object's publisher, if one was handed to this property.
    var objectWillChange: ObservableObjectPublisher? { get }
    /// Hands `publisher` to this property unless it has one; returns the one it keeps.
    func install(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher
}

extension Published: PublishedField {
    var objectWillChange: ObservableObjectPublisher? { box.state.withLock { $0.objectWillChange } }

    func install(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher {
        box.state.withLock { state in
            if let installed = state.objectWillChange { return installed }
            state.objectWillChange = publisher
            return publisher
        }
    }
}
