/// The elements a `values` iterator holds, in order (a ``FIFO``).
@usableFromInline
struct ValuesBuffer<Element>: Sendable {
    @usableFromInline var queue = FIFO<HandOff<Element>>()

    @inlinable init() {}

    @inlinable var count: Int { queue.count }

    @inlinable
    mutating func append(_ element: HandOff<Element>) { queue.append(element) }

    @inlinable
    mutating func popFirst() -> HandOff<Element>? { queue.popFirst() }
}

/// A ``ValuesBufferingPolicy`` applied: the one place that checks its limit and decides which
/// elements a buffer keeps, for ``Publisher/values(bufferingPolicy:)`` and
/// ``Publisher/sink(isolation:bufferingPolicy:receiveCompletion:receiveValue:)``.
extension ValuesBufferingPolicy {
    /// Traps naming rule 2 if the limit is negative; `api` is the call that was given it.
    @usableFromInline
    func checkLimit(in api: String) {
        switch self {
        case .unbounded: break
        case .bufferingOldest(let limit), .bufferingNewest(let limit):
            if limit < 0 { Violation.negativeBufferingLimit(limit, in: api) }
        }
    }
}

extension ValuesBuffer {
    /// Appends `element` if `policy` keeps it. Returns the element dropped, if any (`element`
    /// itself, or the oldest kept one under `.bufferingNewest`), for the caller to release
    /// after unlocking: its deinit may run user code.
    @inlinable
    mutating func append(_ element: HandOff<Element>, keeping policy: ValuesBufferingPolicy) -> HandOff<Element>? {
        switch policy {
        case .unbounded:
            append(element)
            return nil
        case .bufferingOldest(let limit):
            guard count < limit else { return element }
            append(element)
            return nil
        case .bufferingNewest(let limit):
            guard limit > 0 else { return element }
            let dropped = count >= limit ? popFirst() : nil
            append(element)
            return dropped
        }
    }
}
