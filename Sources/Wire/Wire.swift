import TouchCore

/// Placeholder until protocol messages land.
enum WireModule {}
