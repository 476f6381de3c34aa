import TouchCore

/// Placeholder until the engine lands (issue 3).
enum GesturesModule {}
