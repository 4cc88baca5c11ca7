package com.example.kotlinx;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AsyncAppenderBase;
import ch.qos.logback.core.ConsoleAppender;
import com.example.util.Threads;
import kotlin.coroutines.EmptyCoroutineContext;
import kotlinx.coroutines.Dispatchers;
import org.slf4j.LoggerFactory;

/**
 * KotlinxApp is a service at rest on two more libraries' machinery: kotlinx.coroutines'
 * Dispatchers.Default (4 tasks dispatched and done: its DefaultDispatcher-worker threads park
 * in CoroutineScheduler$Worker.park, waiting for the next) and a Logback AsyncAppender (one log
 * line written: its AsyncAppender-Worker waits on its queue for the next event). main parks in
 * Threads.awaitShutdown.
 */
public final class KotlinxApp {
    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 4; i++) {
            Dispatchers.getDefault().dispatch(EmptyCoroutineContext.INSTANCE, () -> Math.sqrt(42));
        }
        LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(ctx);
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern("%msg%n");
        enc.start();
        console.setEncoder(enc);
        console.start();
        ch.qos.logback.classic.AsyncAppender async = new ch.qos.logback.classic.AsyncAppender();
        async.setContext(ctx);
        async.setName("ASYNC");
        async.addAppender(console);
        async.start();
        Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        root.detachAndStopAllAppenders();
        root.addAppender(async);
        root.info("started");
        Thread.sleep(300);
        System.out.println("ready");
        Threads.awaitShutdown();
    }
}
