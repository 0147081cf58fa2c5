/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_CONTACT_DOMAIN?: string;
  readonly VITE_SUPPORT_EMAIL?: string;
  readonly VITE_PRIVACY_EMAIL?: string;
  readonly VITE_DPO_EMAIL?: string;
  readonly VITE_API_BASE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
