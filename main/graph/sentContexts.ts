// How sent contexts are stored lives with the database (app migration 29 writes it too).
export {
  FORMAT_PARTS,
  FORMAT_WHOLE,
  loadContextParts,
  packContext,
  storeContextParts,
  sweepContextParts,
  unpackContext,
} from '../db/sentContextParts'
