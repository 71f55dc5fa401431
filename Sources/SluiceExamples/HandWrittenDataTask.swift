import Foundation
import Sluice
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A decoded data-task publisher written by hand against the protocols: what
/// `dataTaskPublisher(for:).map(\.data).decode(type:decoder:)` does, as one custom publisher,
/// its subscription, and a subscriber.
///
/// The publisher makes one subscription per subscriber. The subscription starts the data task
/// at the first demand (a subscriber that asks for nothing costs no request), sends the decoded
/// value and `.finished`, or fails; its `cancel()` cancels the task. It keeps its subscriber only
/// until it ends, so that the two, which hold each other, do not stay alive together.
struct DecodedDataTaskPublisher<Value: Decodable & Sendable>: Publisher {
    typealias Output = Value
    typealias Failure = any Error

    let url: URL
    let session: URLSession

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == any Error {
        // The subscription is not generic over the subscriber: URLSession's completion handler
        // is `@Sendable`, and may only capture what is safe to send (see below).
        let subscription = DecodedDataTaskSubscription<Value>(
            url: url,
            session: session,
            subscriber: AnySubscriber(subscriber)
        )
        subscriber.receive(subscription: subscription)
    }
}

/// The subscription: its state behind a lock, every call out (the task, the subscriber) made
/// after unlocking, so a subscriber that cancels from inside `receive` cannot deadlock it.
final class DecodedDataTaskSubscription<Value: Decodable & Sendable>: Subscription, @unchecked Sendable {
    // `@unchecked Sendable`, so that the completion handler may call back into it: `subscriber`
    // and `task`, its only mutable state, are read and written under `lock` only.
    private let lock = NSLock()
    private var subscriber: AnySubscriber<Value, any Error>?
    private var task: URLSessionDataTask?
    private let url: URL
    private let session: URLSession

    init(url: URL, session: URLSession, subscriber: AnySubscriber<Value, any Error>) {
        self.url = url
        self.session = session
        self.subscriber = subscriber
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > .none, "a subscriber asks for at least one value")
        lock.lock()
        guard subscriber != nil, task == nil else { return lock.unlock() }
        let task = session.dataTask(with: url) { data, _, error in self.complete(data: data, error: error) }
        self.task = task
        lock.unlock()
        task.resume()
    }

    func cancel() {
        lock.lock()
        let task = self.task
        subscriber = nil
        lock.unlock()
        task?.cancel()
    }

    private func complete(data: Data?, error: (any Error)?) {
        lock.lock()
        let subscriber = self.subscriber
        self.subscriber = nil
        lock.unlock()
        guard let subscriber else { return }  // cancelled meanwhile: nothing more is sent
        do {
            if let error { throw error }
            let value = try JSONDecoder().decode(Value.self, from: data ?? Data())
            _ = subscriber.receive(value)
            subscriber.receive(completion: .finished)
        } catch {
            subscriber.receive(completion: .failure(error))
        }
    }
}

/// A subscriber written by hand: it asks for one value, keeps its subscription (so that the
/// request lives) until the stream ends, and hands over the result.
final class OneValueSubscriber<Value: Sendable>: Subscriber, @unchecked Sendable {
    typealias Input = Value
    typealias Failure = any Error

    // `@unchecked Sendable` for the same reason: `subscription` and `result` are guarded by `lock`.
    private let lock = NSLock()
    private var subscription: (any Subscription)?
    private var result: Result<Value, any Error>?
    private var continuation: CheckedContinuation<Result<Value, any Error>, Never>?

    func receive(subscription: any Subscription) {
        lock.lock()
        self.subscription = subscription
        lock.unlock()
        subscription.request(.max(1))
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        lock.lock()
        result = .success(input)
        lock.unlock()
        return .none
    }

    func receive(completion: Subscribers.Completion<any Error>) {
        lock.lock()
        if case .failure(let error) = completion { result = .failure(error) }
        if result == nil { result = .failure(NoValue()) }
        subscription = nil
        let continuation = self.continuation
        let result = self.result
        lock.unlock()
        if let continuation, let result { continuation.resume(returning: result) }
    }

    /// The stream's value or failure, once it has ended.
    func value() async throws -> Value {
        try await withCheckedContinuation { continuation in
            lock.lock()
            if subscription == nil, let result {
                lock.unlock()
                continuation.resume(returning: result)
            } else {
                self.continuation = continuation
                lock.unlock()
            }
        }.get()
    }
}

/// The stream finished without a value.
struct NoValue: Error {}
