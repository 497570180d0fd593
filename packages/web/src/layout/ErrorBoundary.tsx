// The global fallback of SPEC section 8: any rendering error shows 'An unexpected error has occurred.'
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert, Box, Button, Paper } from '@mui/material';
import { MESSAGES } from '@portal/core';

interface State {
  failed: boolean;
}

export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override componentDidUpdate(prev: { resetKey?: string }): void {
    // Navigating elsewhere gives the next page a fresh start.
    if (this.state.failed && prev.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <Box sx={{ p: 3 }}>
        <Paper sx={{ p: 3, maxWidth: 560, mx: 'auto' }}>
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {MESSAGES.globalFallback}
          </Alert>
          <Button variant="contained" href="/account">
            Back to My Account
          </Button>
        </Paper>
      </Box>
    );
  }
}
