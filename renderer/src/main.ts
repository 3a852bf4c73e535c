import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { IpcClient } from './lib/ipc';
import { createDefaultTransport } from './lib/transport';

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks the #app element');

mount(App, { target, props: { client: new IpcClient(createDefaultTransport()) } });
