import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { IpcClient, createDefaultTransport } from './lib/ipc';

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks the #app element');

mount(App, { target, props: { client: new IpcClient(createDefaultTransport()) } });
