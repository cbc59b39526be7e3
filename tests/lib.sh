# shared shell test helpers
