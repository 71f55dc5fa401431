import Foundation
import Sluice
import SluiceFoundation
import SluiceTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private struct Forecast: Codable, Equatable {
    let city: String
    let celsius: Int
}

/// `URLSession.DataTaskPublisher` against a real HTTP server on the loopback interface.
@Suite("URLSession.dataTaskPublisher", .timeLimit(.minutes(12)))
final class DataTaskPublisherTests {
    let server: LoopbackHTTPServer
    let session: URLSession

    init() throws {
        server = try LoopbackHTTPServer(routes: [
            "/forecast": .respond(.init(status: 200, contentType: "application/json", body: #"{"city":"Oslo","celsius":4}"#)),
            "/broken": .respond(.init(status: 200, contentType: "application/json", body: "not json")),
            "/fails": .respond(.init(status: 500, body: "boom")),
            "/hangs": .neverAnswer,
        ])
        let configuration = URLSessionConfiguration.ephemeral
        // Long: under Thread Sanitizer the loopback server may wait minutes for a thread of the
        // cooperative pool, which the stress suites hold; these tests are not about the timeout.
        configuration.timeoutIntervalForRequest = 600
        session = URLSession(configuration: configuration)
    }

    /// The session lets go of its connections (and libcurl's handles) with the test.
    deinit {
        session.invalidateAndCancel()
        server.stop()
    }

    typealias Recorder = RecordingSubscriber<(data: Data, response: URLResponse), URLError>

    private func url(_ path: String) -> URL { URL(string: server.url(for: path))! }

    @Test("the task starts at the first demand, then sends the data and response and finishes")
    func success() async {
        defer { server.stop() }
        let recorder = Recorder(initialDemand: .none)
        session.dataTaskPublisher(for: url("/forecast")).subscribe(recorder)
        #expect(server.requestCount == 0, "no request before demand")
        recorder.request(.max(1))
        let completion = await recorder.waitForCompletion()
        #expect(completion == .finished)
        #expect(recorder.values.count == 1)
        let (data, response) = recorder.values[0]
        #expect(String(decoding: data, as: UTF8.self) == #"{"city":"Oslo","celsius":4}"#)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(recorder.violations.isEmpty)
    }

    @Test("the subscription reads as DataTaskPublisher and mirrors Combine's children: the task once made, the subscriber and publisher until the end, the demand")
    func reflection() async throws {
        defer { server.stop() }
        let recorder = Recorder(initialDemand: .none)
        let publisher = session.dataTaskPublisher(for: url("/forecast"))
        publisher.subscribe(recorder)
        let subscription = try #require(recorder.subscription)
        #expect(String(describing: subscription) == "DataTaskPublisher")
        func children() -> [(String, String)] {
            Mirror(reflecting: subscription).children.map { ($0.label ?? "", String(describing: $0.value)) }
        }
        #expect(children().map(\.0) == ["task", "downstream", "parent", "demand"])
        #expect(children()[0].1 == "nil" && children()[3].1 == "max(0)")
        #expect(children()[1].1.contains("RecordingSubscriber"))
        #expect(children()[2].1 == String(describing: Optional(publisher)))
        recorder.request(.max(2))
        _ = await recorder.waitForCompletion()
        #expect(children().map(\.1)[1...] == ["nil", "nil", "max(2)"])
    }

    @Test("a 404 and a 500 are responses, not failures")
    func errorStatuses() async {
        defer { server.stop() }
        for (path, status) in [("/missing", 404), ("/fails", 500)] {
            let recorder = Recorder()
            session.dataTaskPublisher(for: URLRequest(url: url(path))).subscribe(recorder)
            #expect(await recorder.waitForCompletion() == .finished)
            #expect((recorder.values.first?.response as? HTTPURLResponse)?.statusCode == status)
        }
    }

    @Test("decoded with JSONDecoder: a body that does not decode fails the stream with the decoding error")
    func decoding() async throws {
        defer { server.stop() }
        let good = RecordingSubscriber<Forecast, any Error>()
        defer { good.cancel() }
        session.dataTaskPublisher(for: url("/forecast")).map(\.data).mapError { $0 as any Error }
            .decode(type: Forecast.self, decoder: JSONDecoder()).subscribe(good)
        _ = await good.waitForCompletion()
        #expect(good.values == [Forecast(city: "Oslo", celsius: 4)])
        let bad = RecordingSubscriber<Forecast, any Error>()
        defer { bad.cancel() }
        session.dataTaskPublisher(for: url("/broken")).map(\.data).mapError { $0 as any Error }
            .decode(type: Forecast.self, decoder: JSONDecoder()).subscribe(bad)
        guard case .failure(let error) = await bad.waitForCompletion() else {
            Issue.record("expected a failure")
            return
        }
        #expect(error is DecodingError)
        #expect(bad.values.isEmpty)
    }

    @Test("a transport error fails the stream with the URLError")
    func transportError() async {
        server.stop()
        let recorder = Recorder()
        session.dataTaskPublisher(for: url("/forecast")).subscribe(recorder)
        guard case .failure(let error) = await recorder.waitForCompletion() else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .cannotConnectToHost || error.code == .networkConnectionLost || error.code == .timedOut)
    }

    @Test("cancelling the subscription cancels the request: the server sees the connection closed, nothing is sent")
    func cancelCancelsTheRequest() async {
        defer { server.stop() }
        let recorder = Recorder()
        session.dataTaskPublisher(for: url("/hangs")).subscribe(recorder)
        await server.waitForRequests(count: 1)
        recorder.cancel()
        await server.waitForClosedUnanswered(count: 1)
        #expect(server.closedUnanswered == 1)
        #expect(recorder.values.isEmpty && recorder.completion == nil && recorder.violations.isEmpty)
    }

    @Test("many requests at once each get their own response")
    func concurrentRequests() async {
        defer { server.stop() }
        let recorders = (0..<32).map { _ in Recorder() }
        for recorder in recorders { session.dataTaskPublisher(for: url("/forecast")).subscribe(recorder) }
        for recorder in recorders {
            let completion = await recorder.waitForCompletion()
            #expect(completion == .finished, "\(String(describing: completion))")
        }
        #expect(recorders.allSatisfy { $0.values.count == 1 })
        #expect(server.requestCount == 32)
    }
}

// Only where Foundation's URLSession is swift-corelibs-foundation's, whose designated
// initializer a subclass can call (Darwin's `init(configuration:)` makes a plain URLSession).
#if canImport(FoundationNetworking)
/// A session whose data task records its resumes and, at the first, completes with `data`
/// and no response and no error, as a session subclass (a test double, a cache) may.
private final class SessionWithoutResponse: URLSession, @unchecked Sendable {
    // Unchecked: the superclass is `@unchecked Sendable`; this adds only the task and `data`,
    // both behind locks.
    let data = Locked<Data?>(nil)
    let task = ResumeCountingTask()

    override func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        let data = data.withLock { $0 }
        task.onFirstResume.withLock { $0 = { completionHandler(data, nil, nil) } }
        return task
    }

    static func answering(_ data: Data?) -> SessionWithoutResponse {
        let session = SessionWithoutResponse(configuration: .ephemeral)
        session.data.withLock { $0 = data }
        return session
    }
}

private final class ResumeCountingTask: URLSessionDataTask, @unchecked Sendable {
    // Unchecked: its one mutable state is behind locks.
    let resumes = Locked(0)
    let onFirstResume = Locked<(@Sendable () -> Void)?>(nil)
    let completesOnResume = Locked(true)

    override func resume() {
        resumes.withLock { $0 += 1 }
        guard completesOnResume.withLock({ $0 }) else { return }
        onFirstResume.withLock { $0.take() }?()
    }

    override func cancel() {}
}

@Suite("URLSession.dataTaskPublisher with a session that answers nothing")
struct DataTaskWithoutResponseTests {
    @Test("a task that ends with neither a response nor an error fails with URLError(.unknown), with or without data", arguments: [nil, Data("body".utf8)])
    func noResponseFailsUnknown(data: Data?) {
        let session = SessionWithoutResponse.answering(data)
        let recorder = RecordingSubscriber<(data: Data, response: URLResponse), URLError>()
        session.dataTaskPublisher(for: URL(string: "https://example.com")!).subscribe(recorder)
        #expect(recorder.completion == .failure(URLError(.unknown)))
        #expect(recorder.values.isEmpty)
        #expect(recorder.violations.isEmpty)
    }

    @Test("every request resumes the task, as Combine's does: one task, resumed at each demand")
    func everyRequestResumes() {
        let session = SessionWithoutResponse.answering(nil)
        session.task.completesOnResume.withLock { $0 = false }
        let recorder = RecordingSubscriber<(data: Data, response: URLResponse), URLError>(initialDemand: .none)
        session.dataTaskPublisher(for: URL(string: "https://example.com")!).subscribe(recorder)
        #expect(session.task.resumes.withLock { $0 } == 0, "no task before demand")
        recorder.request(.max(2))
        recorder.request(.max(1))
        #expect(session.task.resumes.withLock { $0 } == 2)
        recorder.cancel()
    }
}
#endif
