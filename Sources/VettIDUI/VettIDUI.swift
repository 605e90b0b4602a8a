// VettIDUI: SwiftUI screens over VettIDViewModels' presentation values. Every view file is behind
// `#if canImport(SwiftUI)`; on other platforms this module is empty.
