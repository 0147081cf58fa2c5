import { useState } from 'react';
import { downloadBlob } from '../../components/export/csv';
import { fixSpecApi } from '../../services/fix-specification/fixSpecApi';
import { errorMessage } from '../../services/simulators/useSimulators';

/** Downloads a client's FIX Orchestra file, with the failure to show. */
export function useOrchestraDownload(compId: string): { download: () => Promise<void>; error: string | null; clearError: () => void } {
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setError(null);
    try {
      const file = await fixSpecApi.orchestra(compId);
      downloadBlob(file.fileName, file.blob);
    } catch (e) {
      setError(`FIX Orchestra download failed: ${errorMessage(e)}`);
    }
  };
  return { download, error, clearError: () => setError(null) };
}
