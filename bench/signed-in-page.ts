/**
 * Page script lines (for a context's init script) that sign the web app in as the API's login answer
 * did: it reads the session from localStorage when it starts, so a benchmark's page opens signed in
 * without the login form's time.
 */
export const signedInStorage = (session: { token: string; user: unknown }) => `
  localStorage.setItem('user', ${JSON.stringify(JSON.stringify(session.user))});
  localStorage.setItem('token', ${JSON.stringify(session.token)});
  localStorage.setItem('sessionExpiresAt', String(Date.now() + 3600000));`;
