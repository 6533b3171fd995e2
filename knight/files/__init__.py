"""This package writes knight's files and reads them back safely.

``atomic_write`` writes a file whole or not at all. ``journal`` keeps
append-only journals sealed line by line. ``owned_files`` names temporaries
and spill folders by their owner. ``strict_json`` reads and writes bounded,
strict JSON."""
