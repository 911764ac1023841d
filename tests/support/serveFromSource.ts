// `loomverse serve` straight from the TypeScript source, for tests that need the host in a
// process of its own (to see whether that process survives what they send it).
import { main } from '../../main/cli'

await main()
