// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// How presentation values format dates and numbers: the locale, calendar and time zone, fixed at creation so a
/// value computed from the same state always reads the same (tests pass a fixed one; apps use ``current``).
public struct PresentationFormat: Sendable, Hashable {
    /// The locale of dates and numbers.
    public let locale: Locale
    /// The calendar of dates.
    public let calendar: Calendar
    /// The time zone of dates.
    public let timeZone: TimeZone

    /// Creates a format.
    public init(locale: Locale, calendar: Calendar? = nil, timeZone: TimeZone) {
        self.locale = locale
        var calendar = calendar ?? Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = locale
        self.calendar = calendar
        self.timeZone = timeZone
    }

    /// The user's locale, calendar and time zone.
    public static var current: PresentationFormat {
        PresentationFormat(locale: .autoupdatingCurrent, calendar: .autoupdatingCurrent, timeZone: .autoupdatingCurrent)
    }

    /// A date with its time, abbreviated (`Nov 25, 2026 at 1:05 PM` in US English).
    public func dateTime(_ date: Date) -> String {
        date.formatted(
            Date.FormatStyle(
                date: .abbreviated, time: .shortened, locale: locale, calendar: calendar, timeZone: timeZone))
    }

    /// A date without its time (`Nov 25, 2026` in US English).
    public func date(_ date: Date) -> String {
        date.formatted(
            Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale, calendar: calendar, timeZone: timeZone)
        )
    }

    /// A count with the locale's grouping (`1,024` in US English).
    public func count(_ value: Int) -> String {
        value.formatted(IntegerFormatStyle<Int>(locale: locale))
    }

    /// A fraction as a whole percentage (`30%` in US English), for progress indicators' accessibility values.
    public func percent(_ fraction: Double) -> String {
        let clamped = min(max(fraction, 0), 1)
        return (clamped).formatted(
            FloatingPointFormatStyle<Double>.Percent(locale: locale).precision(.fractionLength(0)))
    }
}
