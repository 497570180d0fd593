// One screen component per route of core's table (the same names as the web portal's pages).
import type { ComponentType } from 'react';
import type { ScreenId } from '@portal/core';
import LoginScreen from '../screens/LoginScreen';
import SignupScreen from '../screens/SignupScreen';
import ForgotPasswordScreen from '../screens/ForgotPasswordScreen';
import ResetPasswordScreen from '../screens/ResetPasswordScreen';
import AccountScreen from '../screens/AccountScreen';
import PlanScreen from '../screens/PlanScreen';
import ApiKeysScreen from '../screens/ApiKeysScreen';
import ApiKeyInfoScreen from '../screens/ApiKeyInfoScreen';
import IntegrationsScreen from '../screens/IntegrationsScreen';
import CreateIntegrationScreen from '../screens/CreateIntegrationScreen';
import ProjectsScreen from '../screens/ProjectsScreen';
import ModelsScreen from '../screens/ModelsScreen';
import RunsScreen from '../screens/RunsScreen';
import UploadsScreen from '../screens/UploadsScreen';
import CreateFitRunScreen from '../screens/CreateFitRunScreen';
import CreateShrinkRunScreen from '../screens/CreateShrinkRunScreen';
import RunDetailsScreen from '../screens/RunDetailsScreen';
import QuoteDetailsScreen from '../screens/QuoteDetailsScreen';

export const SCREEN_COMPONENTS: Record<ScreenId, ComponentType> = {
  login: LoginScreen,
  signup: SignupScreen,
  forgotPassword: ForgotPasswordScreen,
  resetPassword: ResetPasswordScreen,
  account: AccountScreen,
  plan: PlanScreen,
  apikeys: ApiKeysScreen,
  apikeyInfo: ApiKeyInfoScreen,
  integrations: IntegrationsScreen,
  createIntegration: CreateIntegrationScreen,
  projects: ProjectsScreen,
  models: ModelsScreen,
  runs: RunsScreen,
  uploads: UploadsScreen,
  createFitRun: CreateFitRunScreen,
  createShrinkRun: CreateShrinkRunScreen,
  runDetails: RunDetailsScreen,
  quoteDetails: QuoteDetailsScreen,
};
