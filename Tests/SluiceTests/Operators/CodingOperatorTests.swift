import Testing
import Sluice
import SluiceTesting

struct CodingFailure: Error {}

/// Encodes an `Int` as its decimal text; refuses negative numbers.
struct TextEncoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> String {
        guard let number = value as? Int, number >= 0 else { throw CodingFailure() }
        return String(number)
    }
}

/// Decodes an `Int` from decimal text; refuses anything else.
struct TextDecoder: TopLevelDecoder {
    func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        guard let number = Int(text) as? T else { throw CodingFailure() }
        return number
    }
}

@Suite("encode(encoder:) and decode(type:decoder:)")
struct CodingOperatorTests {
    @Test("each element goes through the coder, in order")
    func roundTrip() {
        var decoded: [Int] = []
        _ = [1, 20, 300].publisher
            .encode(encoder: TextEncoder())
            .decode(type: Int.self, decoder: TextDecoder())
            .sink(receiveCompletion: { _ in }, receiveValue: { decoded.append($0) })
        #expect(decoded == [1, 20, 300])
    }

    @Test("a coding error cancels the upstream and fails the stream")
    func codingErrorFails() {
        let upstream = ControllablePublisher<String, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, any Error>()
        upstream.decode(type: Int.self, decoder: TextDecoder()).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        _ = subscription.send("7")
        _ = subscription.send("seven")
        _ = subscription.send("8")
        #expect(recorder.values == [7])
        #expect(subscription.cancelCount == 1)
        guard case .failure(let error)? = recorder.completion else { Issue.record("no failure"); return }
        #expect(error is CodingFailure)
    }
}
