import Sluice

/// How `assign(to:on:ownership:)` holds the objects it assigns to (CombineExt's `ObjectOwnership`).
public enum ObjectOwnership: Sendable {
    /// Keep the objects alive until the subscription ends (Combine's `assign(to:on:)`).
    case strong
    /// Do not keep them alive; once an object is gone, assignments to it are skipped.
    case weak
    /// Do not keep them alive, and trap if a value comes after an object is gone.
    case unowned
}

extension Publisher where Failure == Never {
    /// Assigns each value to a property of `object`, holding it as `ownership` says (CombineExt's
    /// `assign(to:on:ownership:)`); `.weak` breaks the cycle of an object that keeps its own subscription.
    ///
    /// Demand is `.unlimited`, and cancelling (or releasing) the returned `AnyCancellable` ends the subscription,
    /// as with `assign(to:on:)`. The assignments run on `isolation` (as `sink`'s do), else on the sending thread.
    /// With `.weak`, the subscription stays alive after the object is gone.
    ///
    /// <!-- snippet: AssignWeakly -->
    /// ```swift
    /// final class Label { var text = "" }
    /// let titles = PassthroughSubject<String, Never>()
    /// var label: Label? = Label()
    /// weak let watched = label
    /// let cancellable = titles.assign(to: \.text, on: label!, ownership: .weak)
    /// titles.send("Hello")
    /// #expect(watched?.text == "Hello")
    /// label = nil                       // not kept alive by the subscription
    /// #expect(watched == nil)
    /// titles.send("ignored")
    /// cancellable.cancel()
    /// ```
    public func assign<Root: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root,
        ownership: ObjectOwnership = .strong, isolation: (any Actor)? = #isolation
    ) -> AnyCancellable {
        switch ownership {
        case .strong:
            return assign(to: keyPath, on: object, isolation: isolation)
        case .weak:
            return sink(
                receiveValue: { [weak object] value in object?[keyPath: keyPath] = value },
                isolation: isolation
            )
        case .unowned:
            return sink(
                receiveValue: { [unowned object] value in object[keyPath: keyPath] = value },
                isolation: isolation
            )
        }
    }

    /// Assigns each value to a property of each of two objects, the first, then the second, held as `ownership`
    /// says (CombineExt's `assign(to:on:and:on:ownership:)` and `assign(to:on:and:on:)`). Demand, cancel and
    /// threads as ``Sluice/Publisher/assign(to:on:ownership:isolation:)``.
    public func assign<Root1: AnyObject, Root2: AnyObject>(
        to keyPath1: ReferenceWritableKeyPath<Root1, Output>, on object1: Root1,
        and keyPath2: ReferenceWritableKeyPath<Root2, Output>, on object2: Root2,
        ownership: ObjectOwnership = .strong, isolation: (any Actor)? = #isolation
    ) -> AnyCancellable {
        let first = held(object1, ownership), second = held(object2, ownership)
        return sink(receiveValue: { value in
            first()?[keyPath: keyPath1] = value
            second()?[keyPath: keyPath2] = value
        }, isolation: isolation)
    }

    /// Assigns each value to a property of each of three objects, in order, held as `ownership` says
    /// (CombineExt's `assign(to:on:and:on:and:on:ownership:)` and `assign(to:on:and:on:and:on:)`). Demand,
    /// cancel and threads as ``Sluice/Publisher/assign(to:on:ownership:isolation:)``.
    public func assign<Root1: AnyObject, Root2: AnyObject, Root3: AnyObject>(
        to keyPath1: ReferenceWritableKeyPath<Root1, Output>, on object1: Root1,
        and keyPath2: ReferenceWritableKeyPath<Root2, Output>, on object2: Root2,
        and keyPath3: ReferenceWritableKeyPath<Root3, Output>, on object3: Root3,
        ownership: ObjectOwnership = .strong, isolation: (any Actor)? = #isolation
    ) -> AnyCancellable {
        let first = held(object1, ownership), second = held(object2, ownership), third = held(object3, ownership)
        return sink(receiveValue: { value in
            first()?[keyPath: keyPath1] = value
            second()?[keyPath: keyPath2] = value
            third()?[keyPath: keyPath3] = value
        }, isolation: isolation)
    }
}

/// A reader of `object`: `nil` only for a `.weak` object that is gone; traps for an `.unowned` one that is gone.
private func held<Object: AnyObject>(_ object: Object, _ ownership: ObjectOwnership) -> () -> Object? {
    switch ownership {
    case .strong: { object }
    case .weak: { [weak object] in object }
    case .unowned: { [unowned object] in object }
    }
}
