import Foundation
import Dispatch
import Sluice
import SluiceTesting
import Testing

private struct Oops: Error, Equatable {}

@Suite(.timeLimit(.minutes(12))) struct RecordTests {
    @Test func recordDeliversIncrementallyPerDemandThenCompletesAfterLastValue() {
        let record = Record<Int, Oops>(output: [1, 2, 3], completion: .failure(Oops()))
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .none)
        record.subscribe(recorder)
        recorder.request(.max(1))
        #expect(recorder.values == [1])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .completion(.failure(Oops()))])
        #expect(recorder.violations.isEmpty)
    }

    @Test func demandReturnedFromReceiveIsCountedAndNeverExceeded() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(1))
        Record<Int, Never>(output: Array(0..<100), completion: .finished).subscribe(recorder)
        recorder.request(.max(1))
        #expect(recorder.values == Array(0..<100))
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test func largeRecordWithReentrantRequestsKeepsRecursionBounded() {
        let count = 200_000
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        recorder.onValue { [weak recorder] _ in
            recorder?.request(.max(1))
            return .none
        }
        Record<Int, Never>(output: Array(0..<count), completion: .finished).subscribe(recorder)
        recorder.request(.max(1))
        #expect(recorder.values.count == count)
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelFromInsideReceiveStopsEverything() {
        let recorder = RecordingSubscriber<Int, Never>()
        recorder.onValue { [weak recorder] value in
            if value == 2 { recorder?.cancel() }
            return .none
        }
        Record<Int, Never>(output: [1, 2, 3], completion: .finished).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        #expect(String(describing: recorder.subscription!) == "Cancelled Events")
    }

    @Test func emptyRecordCompletesImmediatelyWithoutDemand() {
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .none)
        Record<Int, Oops>(output: [], completion: .failure(Oops())).subscribe(recorder)
        #expect(recorder.events == [.subscription, .completion(.failure(Oops()))])
    }

    @Test func recordingClosureBuildsOutputAndCompletionAndDefaultsToFinished() {
        let record = Record<Int, Oops> { recording in
            recording.receive(1)
            recording.receive(2)
        }
        #expect(record.recording.output == [1, 2])
        #expect(record.recording.completion == .finished)
        let failing = Record<Int, Oops> { $0.receive(completion: .failure(Oops())) }
        #expect(failing.recording.completion == .failure(Oops()))
    }

    @Test func everySubscriberGetsTheWholeRecording() {
        let record = Record<Int, Never>(output: [1, 2], completion: .finished)
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        record.subscribe(first)
        record.subscribe(second)
        #expect(first.values == [1, 2] && second.values == [1, 2])
    }

    @Test func subscriptionDescribesItselfWithTheRecordedValues() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(recorder)
        #expect(String(describing: recorder.subscription!) == "[1, 2]")
        #expect(Mirror(reflecting: recorder.subscription!).children.map(\.label) == ["sequence", "completion"])
        recorder.cancel()  // the subscription and the recorder hold each other until then
    }

    @Test func concurrentRequestsAndCancelNeverExceedDemandOrOverlap() {
        for _ in 0..<1_000 {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            Record<Int, Never>(output: Array(0..<20), completion: .finished).subscribe(recorder)
            runConcurrently(threads: 6) { index in
                if index == 5 { recorder.cancel() } else { recorder.request(.max(3)) }
            }
            #expect(recorder.violations.isEmpty)
            #expect(recorder.values == Array(0..<recorder.values.count))
            #expect(recorder.values.count <= 15)
        }
    }

    @Test func subscriberIsReleasedAfterCancel() {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
            weakRecorder = recorder
            Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(recorder)
            subscription = recorder.subscription
            subscription?.cancel()
        }
        #expect(weakRecorder == nil)
        #expect(subscription != nil)
    }

    @Test(.exitTest) func recordingAValueAfterTheCompletionTrapsNamingTheRule() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var recording = Record<Int, Never>.Recording()
            recording.receive(completion: .finished)
            recording.receive(1)
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text.contains("nothing follows a completion (rule 4)"))
        }
    }

    @Test(.exitTest) func recordingASecondCompletionTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Record<Int, Never> { recording in
                recording.receive(completion: .finished)
                recording.receive(completion: .finished)
            }
        }
    }
}

/// An error that can be archived with a recording.
private struct ArchivedError: Error, Codable, Equatable {
    var code: Int
}

@Suite(.timeLimit(.minutes(12))) struct RecordCodableTests {
    @Test func recordRoundTripsThroughJSONAndPlaysBackTheSameEvents() throws {
        let record = Record<String, ArchivedError>(output: ["a", "b"], completion: .failure(ArchivedError(code: 7)))
        let decoded = try JSONDecoder().decode(
            Record<String, ArchivedError>.self, from: JSONEncoder().encode(record))
        #expect(decoded.recording.output == ["a", "b"])
        #expect(decoded.recording.completion == .failure(ArchivedError(code: 7)))
        let recorder = RecordingSubscriber<String, ArchivedError>()
        decoded.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value("a"), .value("b"), .completion(.failure(ArchivedError(code: 7)))])
    }

    @Test func recordingRoundTripsThroughJSONWithAFinishedCompletion() throws {
        var recording = Record<Int, ArchivedError>.Recording()
        recording.receive(1)
        recording.receive(2)
        let decoded = try JSONDecoder().decode(
            Record<Int, ArchivedError>.Recording.self, from: JSONEncoder().encode(recording))
        #expect(decoded.output == [1, 2])
        #expect(decoded.completion == .finished)
    }

    @Test func encodingUsesCombinesKeysAndEncodeIntoMatchesEncodeTo() throws {
        let record = Record<Int, ArchivedError>(output: [3], completion: .finished)
        let json = try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        let recording = try #require(json["recording"] as? [String: Any])
        #expect(Set(recording.keys) == ["output", "completion"])
        #expect(recording["output"] as? [Int] == [3])

        struct ViaEncodeInto: Encodable {
            let recording: Record<Int, ArchivedError>.Recording
            func encode(to encoder: any Encoder) throws { try recording.encode(into: encoder) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(ViaEncodeInto(recording: record.recording)) == encoder.encode(record.recording))
    }

    @Test func malformedRecordingFailsToDecode() {
        let data = Data(#"{"output": [1]}"#.utf8)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Record<Int, ArchivedError>.Recording.self, from: data)
        }
    }

    @Test(.exitTest) func decodedRecordingIsCompleteSoRecordingMoreTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let data = Data(#"{"output": [1], "completion": {"success": true}}"#.utf8)
            var recording = try JSONDecoder().decode(Record<Int, ArchivedError>.Recording.self, from: data)
            recording.receive(2)
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text.contains("nothing follows a completion (rule 4)"))
        }
    }
}
