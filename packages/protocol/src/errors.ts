/** The JSON body of every non-2xx API answer. `field` names the offending input when there is one. */
export interface ApiError {
  success: false;
  message: string;
  error: string;
  field?: string;
  issues?: { path: string; message: string }[];
}

export const AUTH_REQUIRED_MESSAGE = 'Authentication required. Please log in to perform trading actions.';
export const FORBIDDEN_MESSAGE = 'You do not have permission to perform this action.';
