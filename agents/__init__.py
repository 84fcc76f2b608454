"""memkeeper.agents: the edges through which agents reach the engine (the MCP server)."""
