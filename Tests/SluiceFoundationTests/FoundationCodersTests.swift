import Foundation
import Sluice
import SluiceFoundation
import SluiceTesting
import Testing

private struct Point: Codable, Equatable, Sendable {
    var x: Int
    var y: Int
}

@Suite
struct FoundationCodersTests {
    fileprivate static let points = [Point(x: 1, y: 2), Point(x: -3, y: 4)]

    @Test func jsonEncodeThenDecodeGivesTheValuesBack() {
        let recorder = RecordingSubscriber<Point, any Error>()
        defer { recorder.cancel() }
        Self.points.publisher
            .encode(encoder: JSONEncoder())
            .decode(type: Point.self, decoder: JSONDecoder())
            .subscribe(recorder)
        #expect(recorder.values == Self.points)
        #expect(recorder.completion.map { if case .finished = $0 { true } else { false } } == true)
    }

    @Test func propertyListEncodeThenDecodeGivesTheValuesBack() {
        let recorder = RecordingSubscriber<Point, any Error>()
        defer { recorder.cancel() }
        Self.points.publisher
            .encode(encoder: PropertyListEncoder())
            .decode(type: Point.self, decoder: PropertyListDecoder())
            .subscribe(recorder)
        #expect(recorder.values == Self.points)
    }

    @Test func jsonEncodingProducesTheEncodersData() throws {
        let recorder = RecordingSubscriber<Data, any Error>()
        defer { recorder.cancel() }
        Just(Point(x: 5, y: 6)).encode(encoder: JSONEncoder()).subscribe(recorder)
        #expect(try JSONDecoder().decode(Point.self, from: #require(recorder.values.first)) == Point(x: 5, y: 6))
    }

    @Test func aDecodingErrorFailsTheStreamAndReachesTheSubscriber() {
        let recorder = RecordingSubscriber<Point, any Error>()
        defer { recorder.cancel() }
        [Data(#"{"x":1,"y":2}"#.utf8), Data("not json".utf8), Data(#"{"x":3,"y":4}"#.utf8)].publisher
            .decode(type: Point.self, decoder: JSONDecoder())
            .subscribe(recorder)
        #expect(recorder.values == [Point(x: 1, y: 2)])
        guard case .failure(let error) = recorder.completion else {
            Issue.record("expected a failure, got \(String(describing: recorder.completion))")
            return
        }
        #expect(error is DecodingError)
        #expect(recorder.violations.isEmpty)
    }
}
