/// Why ``Publisher/onlyValue(isolation:)`` found no single value.
///
/// <!-- snippet: OnlyValueErrorCatch -->
/// ```swift
/// do throws(OnlyValueError<Never>) {
///     let user = try await users.onlyValue()
///     greet(user)
/// } catch .moreThanOneValue {
///     greet(nil)   // ambiguous: the subscription was cancelled at the second user
/// } catch {
///     // .noValue, .cancelled or .failure(_)
/// }
/// ```
public enum OnlyValueError<Failure: Error>: Error {
    /// The publisher failed.
    case failure(Failure)
    /// The publisher finished without a value.
    case noValue
    /// The publisher sent a second value (the subscription was then cancelled).
    case moreThanOneValue
    /// The awaiting task was cancelled (and so was the subscription).
    case cancelled
}

extension OnlyValueError: Equatable where Failure: Equatable {}

extension Publisher where Output: Sendable {
    /// Awaits the publisher's first value: requests one, then cancels the subscription.
    ///
    /// Returns `nil` if the publisher finishes without a value or the awaiting task is cancelled (the
    /// subscription is cancelled then too); throws the publisher's failure. To tell the two `nil`s apart,
    /// check `Task.isCancelled` after it (cancellation is permanent): the error type stays the publisher's
    /// own, so cancellation is not thrown.
    @inlinable
    public func firstValue(isolation: isolated (any Actor)? = #isolation) async throws(Failure) -> Output? {
        switch await ValueAwaiter.outcome(of: self, mode: .first) {
        case .value(let value): return value
        case .failure(let error): throw error
        case .moreThanOne, .cancelled: return nil
        }
    }

    /// Awaits the publisher's last value: requests unlimited values and keeps the latest until it finishes.
    ///
    /// Returns `nil` if the publisher finishes without a value or the awaiting task is cancelled (the
    /// subscription is cancelled then too); throws the publisher's failure.
    @inlinable
    public func lastValue(isolation: isolated (any Actor)? = #isolation) async throws(Failure) -> Output? {
        switch await ValueAwaiter.outcome(of: self, mode: .last) {
        case .value(let value): return value
        case .failure(let error): throw error
        case .moreThanOne, .cancelled: return nil
        }
    }

    /// Awaits the publisher's one and only value: requests two, and succeeds when it finishes after one.
    ///
    /// Throws ``OnlyValueError/moreThanOneValue`` at a second value (cancelling the subscription),
    /// ``OnlyValueError/noValue`` if it finishes without one, ``OnlyValueError/failure(_:)`` if it fails and
    /// ``OnlyValueError/cancelled`` if the awaiting task is cancelled.
    @inlinable
    public func onlyValue(
        isolation: isolated (any Actor)? = #isolation
    ) async throws(OnlyValueError<Failure>) -> Output {
        switch await ValueAwaiter.outcome(of: self, mode: .only) {
        case .value(let value?): return value
        case .value(nil): throw .noValue
        case .failure(let error): throw .failure(error)
        case .moreThanOne: throw .moreThanOneValue
        case .cancelled: throw .cancelled
        }
    }
}
