import Sluice
import SluiceTesting

/// The error the specialised-operator tests throw and fail with.
struct Thrown: Error, Equatable {
    var code = 0
}

/// How a publisher ended, comparable even when its failure is `any Error`: a failure that is
/// not a ``Thrown`` compares as `.failed(nil)`.
enum Ending: Equatable {
    case finished
    case failed(Thrown?)
}

/// What a publisher delivered to one subscriber with unlimited demand, and how it ended.
struct Outcome<Value: Equatable>: Equatable {
    var values: [Value]
    var ending: Ending?
}

/// Subscribes a recorder with unlimited demand and returns what it got; the recorder is
/// cancelled before returning, so nothing stays subscribed.
func outcome<P: Publisher>(of publisher: P) -> Outcome<P.Output> where P.Output: Equatable {
    let recorder = RecordingSubscriber<P.Output, P.Failure>()
    publisher.subscribe(recorder)
    defer { recorder.cancel() }
    let ending: Ending? = switch recorder.completion {
    case .finished: .finished
    case .failure(let error): .failed(error as? Thrown)
    case nil: nil
    }
    return Outcome(values: recorder.values, ending: ending)
}

/// A finished publisher of `values`.
func finished<Value: Equatable>(_ values: Value...) -> Outcome<Value> {
    Outcome(values: values, ending: .finished)
}

/// A publisher that failed with `error` after no value.
func failed<Value: Equatable>(_ error: Thrown, _ type: Value.Type = Value.self) -> Outcome<Value> {
    Outcome(values: [], ending: .failed(error))
}

/// Whether `value`'s static type, as inferred at the call site before this call, is `type`.
///
/// Call it with a value already bound by `let`, so that the expected type cannot steer the
/// overload the compiler picked for that value.
func hasType<T, U>(_ value: T, _ type: U.Type) -> Bool {
    T.self == U.self
}

/// Compiles only when `value`'s type is `type`: pins the type the compiler inferred for a
/// value bound before this call (so that `type` cannot steer the choice of overload).
func pin<T>(_ value: T, as type: T.Type) {}

/// A `mapError` transform for a publisher that cannot fail: it is never called.
func absurd(_ never: Never) -> Thrown {}
