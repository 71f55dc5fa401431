import Foundation
import Sluice

/// `JSONEncoder` encodes each element of `encode(encoder:)` to `Data`.
extension JSONEncoder: TopLevelEncoder {}

/// `JSONDecoder` decodes each `Data` element of `decode(type:decoder:)`.
extension JSONDecoder: TopLevelDecoder {}

/// `PropertyListEncoder` encodes each element of `encode(encoder:)` to `Data`.
extension PropertyListEncoder: TopLevelEncoder {}

/// `PropertyListDecoder` decodes each `Data` element of `decode(type:decoder:)`.
extension PropertyListDecoder: TopLevelDecoder {}
